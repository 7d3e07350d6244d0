import { Checkbox, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import {
  RELAY_TYPES,
  type AlarmInputInput,
  type AlarmInputSetting,
  type AlarmPlace,
} from '../../contract/alarms';
import { ChoiceField, SettingsDialog, useSettingsForm } from './SettingsDialog';

export interface InputDialogProps {
  /** The input to edit, or null for a new one. */
  input: AlarmInputSetting | null;
  places: readonly AlarmPlace[];
  onSave(input: AlarmInputInput & { id?: number }): Promise<boolean>;
  onClose(): void;
}

/** Create or edit one alarm input of a gateway. */
export function InputDialog({ input, places, onSave, onClose }: InputDialogProps) {
  const { t } = useTranslation();
  const gateways = places.filter((p) => p.gatewayId !== null);
  const [v, set] = useSettingsForm<AlarmInputInput>(
    () =>
      input ?? {
        gatewayId: gateways[0]?.gatewayId ?? 0,
        diCode: '',
        content: '',
        horn: true,
        shieldTest: false,
        relayType: 'normallyOpen',
        important: false,
      },
  );
  const flag = (key: 'horn' | 'shieldTest' | 'important') => (
    <Checkbox
      inline
      label={t(`alarms.settings.${key}`)}
      checked={v[key]}
      onChange={() => set({ [key]: !v[key] })}
    />
  );
  return (
    <SettingsDialog
      editing={input !== null}
      onSave={() => onSave(input ? { ...v, id: input.id } : v)}
      onClose={onClose}
    >
      <FormGroup label={t('alarms.settings.gateway')}>
        <HTMLSelect
          fill
          value={String(v.gatewayId)}
          onChange={(e) => set({ gatewayId: Number(e.target.value) })}
        >
          {gateways.map((g) => (
            <option
              key={g.gatewayId}
              value={g.gatewayId ?? 0}
            >{`${g.farmName} · ${g.houseName} (${g.networkId ?? ''})`}</option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('alarms.settings.diCode')}>
        <InputGroup value={v.diCode} maxLength={40} onValueChange={(x) => set({ diCode: x })} />
      </FormGroup>
      <FormGroup label={t('alarms.settings.content')}>
        <InputGroup value={v.content} maxLength={100} onValueChange={(x) => set({ content: x })} />
      </FormGroup>
      <ChoiceField
        label={t('alarms.settings.relayType')}
        value={v.relayType}
        choices={RELAY_TYPES}
        text={(x) => t(`alarms.settings.relayTypes.${x}`)}
        onChange={(relayType) => set({ relayType })}
      />
      <FormGroup>
        {flag('horn')}
        {flag('shieldTest')}
        {flag('important')}
      </FormGroup>
    </SettingsDialog>
  );
}
