import { FormGroup, HTMLSelect, InputGroup, NumericInput, TextArea } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import {
  MAINTENANCE_TYPES,
  type MaintenancePlan,
  type MaintenancePlanInput,
  type Terminal,
} from '../../contract/devices';
import { Choice, DeviceDialog, useForm } from './DeviceDialog';
import { DateField } from '../DateField';

export interface PlanDialogProps {
  /** The house the plan belongs to. */
  houseId: number;
  /** The plan to edit, or null for a new one. */
  plan: MaintenancePlan | null;
  /** The house's devices, for a plan of one device. */
  devices: readonly Terminal[];
  onSave(input: MaintenancePlanInput & { id?: number }): Promise<boolean>;
  onClose(): void;
}

/** Create or edit a maintenance plan: replace a device, every so many run hours, or days. */
export function PlanDialog({ houseId, plan, devices, onSave, onClose }: PlanDialogProps) {
  const { t } = useTranslation();
  const [v, set] = useForm<MaintenancePlanInput>(() => ({
    houseId,
    deviceId: plan?.deviceId ?? null,
    type: plan?.type ?? 'regular',
    content: plan?.content ?? '',
    description: plan?.description ?? '',
    plannedDate: plan?.plannedDate ?? null,
    interval: plan?.interval ?? null,
  }));
  return (
    <DeviceDialog
      title={t(plan ? 'devices.action.edit' : 'devices.action.add')}
      onSave={() => onSave(plan ? { ...v, id: plan.id } : v)}
      onClose={onClose}
      saveTestId="plan-save"
    >
      <Choice
        label={t('devices.field.type')}
        value={v.type}
        choices={MAINTENANCE_TYPES}
        text={(x) => t(`devices.planType.${x}`)}
        onChange={(type) => set({ type })}
        testId="plan-type"
      />
      <FormGroup label={t('devices.field.device')}>
        <HTMLSelect
          fill
          value={v.deviceId == null ? '' : String(v.deviceId)}
          data-testid="plan-device"
          onChange={(e) => set({ deviceId: e.target.value ? Number(e.target.value) : null })}
        >
          <option value="">{t('devices.field.wholeHouse')}</option>
          {devices.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('devices.field.content')}>
        <InputGroup
          value={v.content}
          data-testid="plan-content"
          onValueChange={(content) => set({ content })}
        />
      </FormGroup>
      {v.type !== 'duration' && (
        <FormGroup label={t('devices.field.plannedDate')}>
          <DateField
            value={v.plannedDate ?? ''}
            data-testid="plan-date"
            onChange={(x) => set({ plannedDate: x || null })}
          />
        </FormGroup>
      )}
      <FormGroup
        label={`${t('devices.field.interval')} (${t(`devices.intervalUnit.${v.type}`, { count: v.interval ?? 0 })})`}
      >
        <NumericInput
          fill
          min={1}
          value={v.interval ?? ''}
          data-testid="plan-interval"
          onValueChange={(n) => set({ interval: Number.isFinite(n) && n > 0 ? n : null })}
        />
      </FormGroup>
      <FormGroup label={t('devices.field.description')}>
        <TextArea
          fill
          value={v.description ?? ''}
          onChange={(e) => set({ description: e.target.value })}
        />
      </FormGroup>
    </DeviceDialog>
  );
}
