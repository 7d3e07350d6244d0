import { FormGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import {
  RELAY_TYPES,
  alarmInputInputSchema,
  type AlarmInputInput,
  type AlarmInputSetting,
  type AlarmPlace,
} from '../../contract/alarms';
import { FormDialog } from '../forms/FormDialog';
import { CheckField, SelectField, TextField, optionsOf } from '../forms/fields';
import { useSchemaForm } from '../forms/useSchemaForm';

export interface InputDialogProps {
  /** The input to edit, or null for a new one. */
  input: AlarmInputSetting | null;
  places: readonly AlarmPlace[];
  onSave(input: AlarmInputInput & { id?: number }): Promise<boolean>;
  onClose(): void;
}

const FLAGS = ['horn', 'shieldTest', 'important'] as const;

/** Create or edit one alarm input of a gateway. */
export function InputDialog({ input, places, onSave, onClose }: InputDialogProps) {
  const { t } = useTranslation();
  const gateways = places.filter((p) => p.gatewayId !== null);
  const form = useSchemaForm(alarmInputInputSchema, {
    gatewayId: input?.gatewayId ?? gateways[0]?.gatewayId ?? 0,
    diCode: input?.diCode ?? '',
    content: input?.content ?? '',
    horn: input?.horn ?? true,
    shieldTest: input?.shieldTest ?? false,
    relayType: input?.relayType ?? 'normallyOpen',
    important: input?.important ?? false,
  });
  return (
    <FormDialog
      title={t(input ? 'alarms.settings.edit' : 'alarms.settings.add')}
      form={form}
      onSave={(v) => onSave(input ? { ...v, id: input.id } : v)}
      onClose={onClose}
    >
      <SelectField
        control={form.control}
        name="gatewayId"
        numeric
        label={t('alarms.settings.gateway')}
        options={gateways.map((g) => ({
          value: g.gatewayId ?? 0,
          label: `${g.farmName} · ${g.houseName} (${g.networkId ?? ''})`,
        }))}
      />
      <TextField
        control={form.control}
        name="diCode"
        maxLength={40}
        label={t('alarms.settings.diCode')}
      />
      <TextField
        control={form.control}
        name="content"
        maxLength={100}
        label={t('alarms.settings.content')}
      />
      <SelectField
        control={form.control}
        name="relayType"
        label={t('alarms.settings.relayType')}
        options={optionsOf(RELAY_TYPES, (x) => t(`alarms.settings.relayTypes.${x}`))}
      />
      <FormGroup>
        {FLAGS.map((key) => (
          <CheckField
            key={key}
            control={form.control}
            name={key}
            label={t(`alarms.settings.${key}`)}
          />
        ))}
      </FormGroup>
    </FormDialog>
  );
}
