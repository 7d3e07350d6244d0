import { useState, type CSSProperties, type ReactElement, type ReactNode } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { type FieldValues, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useConfirmSave, type SaveQuestion } from '../useConfirmSave';

export interface FormDialogProps<Input extends FieldValues, Output> {
  title: string;
  /** The form (useSchemaForm, or useForm for one without a schema). */
  form: UseFormReturn<Input, unknown, Output>;
  /** Saves the checked values; resolves true when the dialog may close. */
  onSave(values: Output): Promise<boolean>;
  /** Called on cancel, Escape, or after a successful save. */
  onClose(): void;
  /**
   * Whether it is shown: a dialog kept mounted between uses (the password dialog of the
   * header). Absent: shown while mounted, as a page's dialog of one entry is.
   */
  isOpen?: boolean;
  /** As it opens: a dialog kept mounted resets its form here. */
  onOpening?(): void;
  /** Once it has gone (after its closing transition): where focus goes next. */
  onClosed?(): void;
  /** Named in the question before the save (the entry edited); none: a general question. */
  confirmName?: string;
  /** The save adds a new entry: the question asks whether to add it (it replaces nothing). */
  adding?: boolean;
  /** A question of its own before the save, in place of "Save the changes?". */
  question?: SaveQuestion;
  icon?: ReactElement;
  className?: string;
  style?: CSSProperties;
  /** The save button's text; "Save" when absent. */
  saveText?: string;
  /** Test id of the save button. */
  saveTestId?: string;
  /** Test id of the form. */
  testId?: string;
  /** The fields. */
  children: ReactNode;
}

/**
 * The frame of every console form dialog: title, fields, cancel and save. Save (or Enter in a
 * field) checks the fields first (each problem shows at its field, nothing is sent), then asks
 * "Save the changes?", then saves, busy meanwhile, and closes when the save went through.
 * While a save is under way Cancel and a click beside the dialog wait for it.
 */
export function FormDialog<Input extends FieldValues, Output>({
  title,
  form,
  onSave,
  onClose,
  isOpen = true,
  onOpening,
  onClosed,
  confirmName,
  adding,
  question,
  icon,
  className,
  style,
  saveText,
  saveTestId,
  testId,
  children,
}: FormDialogProps<Input, Output>) {
  const { t } = useTranslation();
  const confirmSave = useConfirmSave(question);
  const [busy, setBusy] = useState(false);
  const save = async (values: Output) => {
    setBusy(true);
    const saved = await onSave(values).finally(() => setBusy(false));
    if (saved) onClose();
  };
  const ask = form.handleSubmit((values) =>
    confirmSave.ask(() => void save(values), confirmName, adding),
  );
  return (
    <Dialog
      isOpen={isOpen}
      title={title}
      icon={icon}
      onClose={onClose}
      onOpening={onOpening}
      onClosed={onClosed}
      canOutsideClickClose={!busy}
      className={className}
      style={style}
    >
      <form
        noValidate
        data-testid={testId}
        onSubmit={(e) => {
          // React passes a submit on through portals: a page's own form around it must not hear it.
          e.stopPropagation();
          void ask(e);
        }}
      >
        <DialogBody>{children}</DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('forms.action.cancel')} onClick={onClose} disabled={busy} />
              <Button
                type="submit"
                intent={Intent.PRIMARY}
                loading={busy}
                text={saveText ?? t('forms.action.save')}
                data-testid={saveTestId}
              />
            </>
          }
        />
      </form>
      {confirmSave.dialog}
    </Dialog>
  );
}
