import {
  Button,
  Checkbox,
  FormGroup,
  HTMLSelect,
  InputGroup,
  NumericInput,
} from '@blueprintjs/core';
import { AddIcon, TrashIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import {
  TERMINAL_TYPES,
  type Concentrator,
  type ExtraParameter,
  type Terminal,
  type TerminalInput,
} from '../../contract/devices';
import { Choice, DeviceDialog, useForm } from './DeviceDialog';

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

type Form = Omit<TerminalInput, 'extras'> & { extras: ExtraParameter[] };

/** Create or edit a terminal device, with its extra parameters (code, name, unit, range). */
export function TerminalDialog({
  houseId,
  device,
  concentrators,
  onSave,
  onClose,
}: TerminalDialogProps) {
  const { t } = useTranslation();
  const [v, set] = useForm<Form>(() => ({
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
  }));
  const text = (
    key: 'name' | 'code' | 'controlPort' | 'currentPort' | 'sensorPort' | 'model' | 'address',
  ) => (
    <FormGroup label={t(`devices.field.${key}`)}>
      <InputGroup
        value={v[key] ?? ''}
        data-testid={`terminal-${key}`}
        placeholder={key === 'controlPort' ? 'fan_1' : undefined}
        onValueChange={(x) => set({ [key]: x })}
      />
    </FormGroup>
  );
  const setExtra = (index: number, patch: Partial<ExtraParameter>) =>
    set({ extras: v.extras.map((e, i) => (i === index ? { ...e, ...patch } : e)) });
  return (
    <DeviceDialog
      title={t(device ? 'devices.action.edit' : 'devices.action.add')}
      onSave={() => onSave(device ? { ...v, id: device.id } : v)}
      onClose={onClose}
      saveTestId="terminal-save"
    >
      {text('name')}
      {text('code')}
      <Choice
        label={t('devices.field.type')}
        value={v.type}
        choices={TERMINAL_TYPES}
        text={(x) => t(`devices.terminalType.${x}`)}
        onChange={(type) => set({ type })}
      />
      <FormGroup label={t('devices.field.concentrator')}>
        <HTMLSelect
          fill
          value={v.concentratorId == null ? '' : String(v.concentratorId)}
          onChange={(e) => set({ concentratorId: e.target.value ? Number(e.target.value) : null })}
        >
          <option value="">{t('devices.field.none')}</option>
          {concentrators.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      {text('controlPort')}
      {text('currentPort')}
      {text('sensorPort')}
      {text('model')}
      {text('address')}
      <FormGroup label={t('devices.field.canInput')}>
        <Checkbox
          checked={v.canInput ?? false}
          label={t('devices.yes')}
          onChange={(e) => set({ canInput: e.currentTarget.checked })}
        />
      </FormGroup>
      <div className="roost-devices__extras">
        <strong>{t('devices.field.extras')}</strong>
        {v.extras.map((e, i) => (
          <div key={i} className="roost-devices__extra" data-testid={`extra-${i}`}>
            <InputGroup
              aria-label={t('devices.field.code')}
              placeholder={t('devices.field.code')}
              value={e.code}
              onValueChange={(code) => setExtra(i, { code })}
            />
            <InputGroup
              aria-label={t('devices.field.name')}
              placeholder={t('devices.field.name')}
              value={e.name}
              onValueChange={(name) => setExtra(i, { name })}
            />
            <InputGroup
              aria-label={t('devices.field.unit')}
              placeholder={t('devices.field.unit')}
              value={e.unit}
              onValueChange={(unit) => setExtra(i, { unit })}
            />
            <NumericInput
              aria-label={t('devices.field.min')}
              value={e.min}
              buttonPosition="none"
              onValueChange={(min) => setExtra(i, { min })}
            />
            <NumericInput
              aria-label={t('devices.field.max')}
              value={e.max}
              buttonPosition="none"
              onValueChange={(max) => setExtra(i, { max })}
            />
            <Button
              variant="minimal"
              icon={<TrashIcon />}
              aria-label={t('devices.action.removeExtra')}
              onClick={() => set({ extras: v.extras.filter((_, j) => j !== i) })}
            />
          </div>
        ))}
        <Button
          icon={<AddIcon />}
          text={t('devices.action.addExtra')}
          data-testid="extra-add"
          onClick={() =>
            set({ extras: [...v.extras, { code: '', name: '', unit: '', min: 0, max: 100 }] })
          }
        />
      </div>
    </DeviceDialog>
  );
}
