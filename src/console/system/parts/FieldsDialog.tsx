import { type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { FormDialog } from '../../forms/FormDialog';
import { DateField, SelectField, TextField } from '../../forms/fields';

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

type Values = Record<string, string>;

/**
 * A form of labelled text fields described as data, on the console's form pattern
 * (src/console/forms): the farm, house, gateway and flock forms, whose values are all text
 * and which the server checks.
 */
export function FieldsDialog({
  title,
  fields,
  initial,
  onSave,
  onClose,
  derive,
  below,
}: FieldsDialogProps) {
  const form = useForm<Values>({ defaultValues: initial });
  const { control, getValues, setValue } = form;
  const change = (patch: Values) => {
    for (const [key, value] of Object.entries(patch)) setValue(key, value);
  };
  /** After the person changed `key`: the fields it fills. */
  const derived = (key: string) => {
    if (!derive) return;
    const now = getValues();
    const next = derive(key, { ...now });
    change(Object.fromEntries(Object.entries(next).filter(([k, v]) => now[k] !== v)));
  };
  // useWatch types each value as maybe absent; a field never typed in holds ''.
  const watched = useWatch({ control });
  const values: Values = Object.fromEntries(
    Object.entries(watched).map(([key, value]) => [key, value ?? '']),
  );
  return (
    <FormDialog
      title={title}
      form={form}
      onSave={onSave}
      onClose={onClose}
      confirmName={title}
      style={{ width: 560, maxWidth: '95vw' }}
    >
      <div className="roost-admin__form">
        {fields.map((f) => {
          const common = {
            control,
            name: f.key,
            label: f.label,
            id: `field-${f.key}`,
            onChanged: () => derived(f.key),
          };
          return f.options ? (
            <SelectField key={f.key} {...common} options={f.options} />
          ) : f.type === 'date' ? (
            <DateField key={f.key} {...common} />
          ) : (
            <TextField key={f.key} {...common} type={f.type === 'number' ? 'number' : 'text'} />
          );
        })}
      </div>
      {below?.(values, change)}
    </FormDialog>
  );
}

/** '' → undefined, else a number (the server validates the range). */
export function numberOrUndefined(value: string | undefined): number | undefined {
  return value === undefined || value.trim() === '' ? undefined : Number(value);
}
