import { useState, type CSSProperties, type ReactNode } from 'react';
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

/**
 * The values of a settings form and a setter that merges a patch. Typed per form: the alarm
 * settings hold booleans, numbers, lists and nulls, which the admin pages' string-only
 * FieldsDialog (src/console/system/parts) cannot carry.
 */
export function useSettingsForm<T extends object>(
  initial: () => T,
): [T, (patch: Partial<T>) => void] {
  const [values, setValues] = useState<T>(initial);
  return [values, (patch) => setValues((old) => ({ ...old, ...patch }))];
}

export interface SettingsDialogProps {
  /** An existing entry is edited ("Edit" title) rather than a new one added ("Add"). */
  editing: boolean;
  /** Saves the form; resolves true when the dialog may close. */
  onSave(): Promise<boolean>;
  /** Called on cancel, Escape, or after a successful save. */
  onClose(): void;
  /** The dialog's style (a wider form gives it a width). */
  style?: CSSProperties;
  /** Test id of the save button. */
  saveTestId?: string;
  /** The form's fields. */
  children: ReactNode;
}

/** The frame of an alarm settings form (alarm phone, alarm input): title, fields, cancel and save. */
export function SettingsDialog({
  editing,
  onSave,
  onClose,
  style,
  saveTestId,
  children,
}: SettingsDialogProps) {
  const { t } = useTranslation();
  const confirmSave = useConfirmSave();
  return (
    <Dialog
      isOpen
      title={t(editing ? 'alarms.settings.edit' : 'alarms.settings.add')}
      onClose={onClose}
      style={style}
    >
      <DialogBody>{children}</DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('alarms.settings.cancel')} onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              text={t('alarms.settings.save')}
              data-testid={saveTestId}
              onClick={() => confirmSave.ask(() => void onSave().then((done) => done && onClose()))}
            />
          </>
        }
      />
      {confirmSave.dialog}
    </Dialog>
  );
}

export interface ChoiceFieldProps<V extends string> {
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
}

/** A labelled select over one of the contract's value lists (alarm type, date type, relay type…). */
export function ChoiceField<V extends string>({
  label,
  value,
  choices,
  text,
  onChange,
}: ChoiceFieldProps<V>) {
  return (
    <FormGroup label={label}>
      <HTMLSelect fill value={value} onChange={(e) => onChange(e.target.value as V)}>
        {choices.map((x) => (
          <option key={x} value={x}>
            {text(x)}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}
