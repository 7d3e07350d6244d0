import { Button, ButtonGroup, InputGroup, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Reminder } from '../../contract/reminders';
import { showSuccessToast } from '../toaster';
import { useStores } from '../useStores';

type Decision = 'done' | 'skipped';

/**
 * Done or Skip for one of the day's flock tasks, right where it is listed. Choosing asks for an
 * optional note first (why a vaccination was skipped is what the next person needs to know).
 */
export function TaskDecision({ task, houseId }: { task: Reminder; houseId?: number }) {
  const { t } = useTranslation();
  const { reminders } = useStores();
  const [choice, setChoice] = useState<Decision | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);

  if (choice === null)
    return (
      <ButtonGroup variant="minimal" className="roost-reminders__decide">
        <Button size="small" intent={Intent.SUCCESS} onClick={() => setChoice('done')}>
          {t('production.tasks.done')}
        </Button>
        <Button size="small" onClick={() => setChoice('skipped')}>
          {t('production.tasks.skip')}
        </Button>
      </ButtonGroup>
    );

  const confirm = async () => {
    setBusy(true);
    try {
      await reminders.decideTask(task, choice, note.trim(), houseId);
    } catch {
      // The client has shown the server's message; the form stays for another try.
      setBusy(false);
      return;
    }
    showSuccessToast(t('production.tasks.saved'));
  };

  return (
    <form
      className="roost-reminders__note"
      data-testid="task-decision"
      onSubmit={(e) => {
        e.preventDefault();
        void confirm();
      }}
    >
      <InputGroup
        size="small"
        autoFocus
        maxLength={500}
        value={note}
        onValueChange={setNote}
        placeholder={t('production.tasks.notePlaceholder')}
        aria-label={t('production.tasks.note')}
      />
      <Button
        size="small"
        type="submit"
        loading={busy}
        intent={choice === 'done' ? Intent.SUCCESS : Intent.WARNING}
      >
        {t(choice === 'done' ? 'production.tasks.confirmDone' : 'production.tasks.confirmSkip')}
      </Button>
      <Button size="small" variant="minimal" onClick={() => setChoice(null)}>
        {t('production.tasks.cancel')}
      </Button>
    </form>
  );
}
