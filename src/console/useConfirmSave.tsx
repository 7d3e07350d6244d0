import { Alert, Intent } from '@blueprintjs/core';
import { FloppyDiskIcon } from '@blueprintjs/icons';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmSave {
  /**
   * Asks "Save the changes?" and runs `save` only when the person says yes; `name` (a farm, a
   * breed, a day) is named in the question. `adding`: the save makes a new entry, which replaces
   * nothing: the question asks whether to add it.
   */
  ask(save: () => void, name?: string, adding?: boolean): void;
  /** The question itself: render it once in the component that asks. */
  dialog: ReactElement;
}

/**
 * A question of its own in place of "Save the changes?", for a save whose consequence is not a
 * stored change alone (a new password ends the person's other sign-ins).
 */
export interface SaveQuestion {
  title: string;
  text: string;
  /** The yes button's text. */
  confirm: string;
  icon: ReactElement;
  intent: Intent;
  /** The class of the question's alert (tests find it by it). */
  className: string;
}

/**
 * The question asked before a save, the same for every console form that changes what is stored
 * (the manage dialogs, alarm settings, devices and cameras, maintenance, a day of production
 * data): a change there takes effect at once for everyone, so a stray click must not make one.
 * One dialog, its texts in `forms.confirmSave`, unless the form gives a question of its own.
 */
export function useConfirmSave(question?: SaveQuestion): ConfirmSave {
  const { t } = useTranslation();
  const [pending, setPending] = useState<{
    save: () => void;
    name?: string;
    adding?: boolean;
  } | null>(null);
  const dialog = (
    <Alert
      isOpen={pending !== null}
      className={question?.className ?? 'roost-confirm-save'}
      intent={question?.intent ?? Intent.PRIMARY}
      icon={question?.icon ?? <FloppyDiskIcon />}
      confirmButtonText={
        question?.confirm ??
        (pending?.adding ? t('forms.confirmAdd.confirm') : t('forms.confirmSave.confirm'))
      }
      cancelButtonText={t('forms.confirmSave.cancel')}
      canEscapeKeyCancel
      onCancel={() => setPending(null)}
      onConfirm={() => {
        const save = pending?.save;
        setPending(null);
        save?.();
      }}
    >
      <p data-testid="confirm-save">
        <strong>
          {question?.title ??
            (pending?.adding ? t('forms.confirmAdd.title') : t('forms.confirmSave.title'))}
        </strong>
      </p>
      <p>
        {question?.text ??
          (pending?.adding
            ? t('forms.confirmAdd.text')
            : pending?.name
              ? t('forms.confirmSave.textNamed', { name: pending.name })
              : t('forms.confirmSave.text'))}
      </p>
    </Alert>
  );
  return { ask: (save, name, adding) => setPending({ save, name, adding }), dialog };
}
