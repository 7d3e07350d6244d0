import { useState, type ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Intent,
} from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../DateField';
import { useConfirmSave } from '../../useConfirmSave';

export interface FieldSpec {
  key: string;
  label: string;
  type?: 'text' | 'number' | 'date';
  /** Makes the field a select with these choices. */
  options?: Array<{ value: string; label: string }>;
}

export interface FieldsDialogProps {
  title: string;
  fields: FieldSpec[];
  /** Starting values, as text. */
  initial: Record<string, string>;
  /** Saves; resolves true when the dialog may close. */
  onSave(values: Record<string, string>): Promise<boolean>;
  onClose(): void;
  /** The values after one field changed, where a field fills others (a province, its position). */
  derive?(key: string, values: Record<string, string>): Record<string, string>;
  /** Shown under the fields, with the values and a way to change them (a map to click). */
  below?(
    values: Record<string, string>,
    change: (patch: Record<string, string>) => void,
  ): ReactNode;
}

/** A small form of labelled fields in a dialog: the farm, house, gateway and flock forms. */
export function FieldsDialog({
  title,
  fields,
  initial,
  onSave,
  onClose,
  derive,
  below,
}: FieldsDialogProps) {
  const { t } = useTranslation();
  const confirmSave = useConfirmSave();
  const [values, setValues] = useState(initial);
  const [busy, setBusy] = useState(false);
  const set = (key: string, value: string) =>
    setValues((v) => {
      const next = { ...v, [key]: value };
      return derive ? derive(key, next) : next;
    });
  const change = (patch: Record<string, string>) => setValues((v) => ({ ...v, ...patch }));
  const submit = async () => {
    setBusy(true);
    const saved = await onSave(values);
    setBusy(false);
    if (saved) onClose();
  };
  return (
    <Dialog isOpen title={title} onClose={onClose} style={{ width: 560, maxWidth: '95vw' }}>
      <DialogBody>
        <div className="roost-admin__form">
          {fields.map((f) => (
            <FormGroup key={f.key} label={f.label} labelFor={`field-${f.key}`}>
              {f.options ? (
                <HTMLSelect
                  id={`field-${f.key}`}
                  name={f.key}
                  fill
                  value={values[f.key] ?? ''}
                  onChange={(e) => set(f.key, e.target.value)}
                >
                  {f.options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </HTMLSelect>
              ) : f.type === 'date' ? (
                <DateField
                  id={`field-${f.key}`}
                  name={f.key}
                  value={values[f.key] ?? ''}
                  onChange={(v) => set(f.key, v)}
                />
              ) : (
                <InputGroup
                  id={`field-${f.key}`}
                  name={f.key}
                  type={f.type ?? 'text'}
                  value={values[f.key] ?? ''}
                  onValueChange={(v) => set(f.key, v)}
                />
              )}
            </FormGroup>
          ))}
        </div>
        {below?.(values, change)}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('admin.common.cancel')} onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              loading={busy}
              text={t('admin.common.save')}
              onClick={() => confirmSave.ask(() => void submit(), title)}
            />
          </>
        }
      />
      {confirmSave.dialog}
    </Dialog>
  );
}

/** '' → undefined, else a number (the server validates the range). */
export function numberOrUndefined(value: string | undefined): number | undefined {
  return value === undefined || value.trim() === '' ? undefined : Number(value);
}
