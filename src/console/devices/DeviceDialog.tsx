import { useState, type ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  Intent,
} from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useConfirmSave } from '../useConfirmSave';

/** The values of a device form and a setter that merges a patch. */
export function useForm<T extends object>(initial: () => T): [T, (patch: Partial<T>) => void] {
  const [values, setValues] = useState<T>(initial);
  return [values, (patch) => setValues((old) => ({ ...old, ...patch }))];
}

export interface DeviceDialogProps {
  /** The dialog's title. */
  title: string;
  /** Saves the form; resolves true when the dialog may close. */
  onSave(): Promise<boolean>;
  /** Called on cancel, Escape, or after a successful save. */
  onClose(): void;
  /** Test id of the save button. */
  saveTestId?: string;
  /** The form's fields. */
  children: ReactNode;
}

/** The frame of a device form: title, fields, cancel and save. */
export function DeviceDialog({ title, onSave, onClose, saveTestId, children }: DeviceDialogProps) {
  const { t } = useTranslation();
  const confirmSave = useConfirmSave();
  return (
    <Dialog isOpen title={title} onClose={onClose} className="roost-devices__dialog">
      <DialogBody>
        <div className="roost-devices__form">{children}</div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('devices.action.cancel')} onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              text={t('devices.action.save')}
              data-testid={saveTestId}
              onClick={() =>
                confirmSave.ask(() => void onSave().then((done) => done && onClose()), title)
              }
            />
          </>
        }
      />
      {confirmSave.dialog}
    </Dialog>
  );
}

export interface ChoiceProps<V extends string> {
  /** The field's label. */
  label: string;
  /** The chosen value. */
  value: V;
  /** Every value, in the order shown. */
  choices: readonly V[];
  /** A choice's text in the user's language. */
  text(choice: V): string;
  /** Called with the new choice. */
  onChange(choice: V): void;
  /** Test id of the select. */
  testId?: string;
}

/** A labelled select over one of the contract's value lists. */
export function Choice<V extends string>({
  label,
  value,
  choices,
  text,
  onChange,
  testId,
}: ChoiceProps<V>) {
  return (
    <FormGroup label={label}>
      <HTMLSelect
        fill
        value={value}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value as V)}
      >
        {choices.map((x) => (
          <option key={x} value={x}>
            {text(x)}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}
