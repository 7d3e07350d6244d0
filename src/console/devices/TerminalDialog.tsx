import { Fragment } from 'react';
import { Button, FormGroup, Intent } from '@blueprintjs/core';
import { AddIcon, TrashIcon } from '@blueprintjs/icons';
import { useFieldArray, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  TERMINAL_TYPES,
  terminalInputSchema,
  type Concentrator,
  type Terminal,
  type TerminalInput,
} from '../../contract/devices';
import { FormDialog } from '../forms/FormDialog';
import {
  CheckField,
  NumberField,
  SelectField,
  TextField,
  optionsOf,
  useErrorText,
} from '../forms/fields';
import { useSchemaForm } from '../forms/useSchemaForm';

export interface TerminalDialogProps {
  /** The house the device belongs to. */
  houseId: number;
  /** The device to edit, or null for a new one. */
  device: Terminal | null;
  /** The house's concentrators, to hang the device on. */
  concentrators: readonly Concentrator[];
  onSave(input: TerminalInput & { id?: number }): Promise<boolean>;
  onClose(): void;
}

const EXTRA_TEXTS = ['code', 'name', 'unit'] as const;
const EXTRA_NUMBERS = ['min', 'max'] as const;

/** A problem of the extra parameters, under the entry (or the list) it is about. */
function Problem({ text }: { text: string | undefined }) {
  if (!text) return null;
  return <FormGroup intent={Intent.DANGER} helperText={text} />;
}

/** Create or edit a terminal device, with its extra parameters (code, name, unit, range). */
export function TerminalDialog({
  houseId,
  device,
  concentrators,
  onSave,
  onClose,
}: TerminalDialogProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const form = useSchemaForm(terminalInputSchema, {
    houseId,
    concentratorId: device?.concentratorId ?? null,
    name: device?.name ?? '',
    code: device?.code ?? '',
    controlPort: device?.controlPort ?? '',
    currentPort: device?.currentPort ?? '',
    sensorPort: device?.sensorPort ?? '',
    model: device?.model ?? '',
    address: device?.address ?? '',
    canInput: device?.canInput ?? false,
    type: device?.type ?? 'fan',
    extras: device?.extras.map((e) => ({ ...e })) ?? [],
  });
  const extras = useFieldArray({ control: form.control, name: 'extras' });
  const extrasErrors = form.formState.errors.extras;
  const text = (
    key: 'name' | 'code' | 'controlPort' | 'currentPort' | 'sensorPort' | 'model' | 'address',
  ) => (
    <TextField
      control={form.control}
      name={key}
      label={t(`devices.field.${key}`)}
      testId={`terminal-${key}`}
      placeholder={key === 'controlPort' ? 'fan_1' : undefined}
    />
  );
  // A list's own problem (two parameters of one code) sits at its root; an entry's at its fields.
  const listProblem = errorText(extrasErrors?.root ?? (extrasErrors as FieldError | undefined));
  const rowProblem = (i: number) => {
    const row = extrasErrors?.[i];
    const first = [...EXTRA_TEXTS, ...EXTRA_NUMBERS].map((k) => row?.[k]).find(Boolean);
    return errorText(first);
  };
  const title = t(device ? 'devices.action.edit' : 'devices.action.add');
  return (
    <FormDialog
      title={title}
      form={form}
      onSave={(v) => onSave(device ? { ...v, id: device.id } : v)}
      onClose={onClose}
      confirmName={device?.name}
      adding={!device}
      className="roost-devices__dialog"
      saveTestId="terminal-save"
    >
      <div className="roost-devices__form">
        {text('name')}
        {text('code')}
        <SelectField
          control={form.control}
          name="type"
          label={t('devices.field.type')}
          options={optionsOf(TERMINAL_TYPES, (x) => t(`devices.terminalType.${x}`))}
        />
        <SelectField
          control={form.control}
          name="concentratorId"
          numeric
          emptyOption={t('devices.field.none')}
          label={t('devices.field.concentrator')}
          options={concentrators.map((c) => ({ value: c.id, label: c.name }))}
        />
        {text('controlPort')}
        {text('currentPort')}
        {text('sensorPort')}
        {text('model')}
        {text('address')}
        <FormGroup label={t('devices.field.canInput')}>
          <CheckField control={form.control} name="canInput" label={t('devices.yes')} />
        </FormGroup>
        <div className="roost-devices__extras">
          <strong>{t('devices.field.extras')}</strong>
          {extras.fields.map((entry, i) => (
            <Fragment key={entry.id}>
              <div className="roost-devices__extra" data-testid={`extra-${i}`}>
                {EXTRA_TEXTS.map((k) => (
                  <TextField
                    key={k}
                    bare
                    control={form.control}
                    name={`extras.${i}.${k}`}
                    label={t(`devices.field.${k}`)}
                  />
                ))}
                {EXTRA_NUMBERS.map((k) => (
                  <NumberField
                    key={k}
                    bare
                    control={form.control}
                    name={`extras.${i}.${k}`}
                    label={t(`devices.field.${k}`)}
                  />
                ))}
                <Button
                  variant="minimal"
                  icon={<TrashIcon />}
                  aria-label={t('devices.action.removeExtra')}
                  onClick={() => extras.remove(i)}
                />
              </div>
              <Problem text={rowProblem(i)} />
            </Fragment>
          ))}
          <Problem text={listProblem} />
          <Button
            icon={<AddIcon />}
            text={t('devices.action.addExtra')}
            data-testid="extra-add"
            onClick={() => extras.append({ code: '', name: '', unit: '', min: 0, max: 100 })}
          />
        </div>
      </div>
    </FormDialog>
  );
}
