import { useState, type CSSProperties, type ReactNode } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { type FieldValues, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useConfirmSave } from '../useConfirmSave';

export interface FormDialogProps<Input extends FieldValues, Output> {
  title: string;
  /** The form (useSchemaForm, or useForm for one without a schema). */
  form: UseFormReturn<Input, unknown, Output>;
  /** Saves the checked values; resolves true when the dialog may close. */
  onSave(values: Output): Promise<boolean>;
  /** Called on cancel, Escape, or after a successful save. */
  onClose(): void;
  /** Named in the question before the save (the entry edited); none: a general question. */
  confirmName?: string;
  className?: string;
  style?: CSSProperties;
  /** Test id of the save button. */
  saveTestId?: string;
  /** The fields. */
  children: ReactNode;
}

/**
 * The frame of every console form dialog: title, fields, cancel and save. Save checks the
 * fields first (each problem shows at its field), then asks "Save the changes?", then saves,
 * busy meanwhile, and closes when the save went through.
 */
export function FormDialog<Input extends FieldValues, Output>({
  title,
  form,
  onSave,
  onClose,
  confirmName,
  className,
  style,
  saveTestId,
  children,
}: FormDialogProps<Input, Output>) {
  const { t } = useTranslation();
  const confirmSave = useConfirmSave();
  const [busy, setBusy] = useState(false);
  const save = async (values: Output) => {
    setBusy(true);
    const saved = await onSave(values).finally(() => setBusy(false));
    if (saved) onClose();
  };
  const ask = form.handleSubmit((values) => confirmSave.ask(() => void save(values), confirmName));
  return (
    <Dialog isOpen title={title} onClose={onClose} className={className} style={style}>
      <DialogBody>{children}</DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('forms.action.cancel')} onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              loading={busy}
              text={t('forms.action.save')}
              data-testid={saveTestId}
              onClick={() => void ask()}
            />
          </>
        }
      />
      {confirmSave.dialog}
    </Dialog>
  );
}
