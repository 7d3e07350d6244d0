import { useState } from 'react';
import { Alert, Button, InputGroup, Intent } from '@blueprintjs/core';
import { TickIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type Alarm } from '../../contract/alarms';
import { showSuccessToast } from '../toaster';
import { useStores } from '../useStores';

export interface AcknowledgeButtonProps {
  /** The alarm to acknowledge; nothing is shown unless it is active and the user may operate. */
  alarm: Alarm;
  /** Smaller, for cards and table rows. */
  small?: boolean;
}

/** Acknowledges an alarm with an optional comment; the list and the house monitor use it. */
export const AcknowledgeButton = observer(function AcknowledgeButton({
  alarm,
  small,
}: AcknowledgeButtonProps) {
  const { t } = useTranslation();
  const { api, alarms, session } = useStores();
  const [open, setOpen] = useState(false);
  const [comment, setComment] = useState('');
  if (alarm.state !== 'active' || !session.canOperate) return null;
  const confirm = async () => {
    setOpen(false);
    try {
      await alarms.acknowledge(api, alarm.id, comment.trim() || undefined);
      showSuccessToast(t('alarms.ack.done'));
    } catch {
      // The API client has shown the reason.
    }
  };
  return (
    <>
      <Button
        size={small ? 'small' : 'medium'}
        intent={Intent.WARNING}
        icon={<TickIcon />}
        text={t('alarms.ack.button')}
        data-testid={`ack-${alarm.id}`}
        onClick={() => setOpen(true)}
      />
      <Alert
        isOpen={open}
        intent={Intent.WARNING}
        confirmButtonText={t('alarms.ack.button')}
        cancelButtonText={t('alarms.ack.cancel')}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(false)}
      >
        <p>{t('alarms.ack.title')}</p>
        <InputGroup
          placeholder={t('alarms.ack.comment')}
          aria-label={t('alarms.ack.comment')}
          value={comment}
          maxLength={200}
          onValueChange={setComment}
        />
      </Alert>
    </>
  );
});
