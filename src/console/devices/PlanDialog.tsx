import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  MAINTENANCE_TYPES,
  maintenancePlanInputSchema,
  type MaintenancePlan,
  type MaintenancePlanInput,
  type Terminal,
} from '../../contract/devices';
import { FormDialog } from '../forms/FormDialog';
import {
  DateField,
  NumberField,
  SelectField,
  TextAreaField,
  TextField,
  optionsOf,
} from '../forms/fields';
import { useSchemaForm } from '../forms/useSchemaForm';

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
  const form = useSchemaForm(maintenancePlanInputSchema, {
    houseId,
    deviceId: plan?.deviceId ?? null,
    type: plan?.type ?? 'regular',
    content: plan?.content ?? '',
    description: plan?.description ?? '',
    plannedDate: plan?.plannedDate ?? null,
    interval: plan?.interval ?? null,
  });
  const [type, interval] = useWatch({ control: form.control, name: ['type', 'interval'] });
  const title = t(plan ? 'devices.action.edit' : 'devices.action.add');
  return (
    <FormDialog
      title={title}
      form={form}
      onSave={(v) => onSave(plan ? { ...v, id: plan.id } : v)}
      onClose={onClose}
      confirmName={plan?.content}
      adding={!plan}
      className="roost-devices__dialog"
      saveTestId="plan-save"
    >
      <div className="roost-devices__form">
        <SelectField
          control={form.control}
          name="type"
          label={t('devices.field.type')}
          options={optionsOf(MAINTENANCE_TYPES, (x) => t(`devices.planType.${x}`))}
          testId="plan-type"
        />
        <SelectField
          control={form.control}
          name="deviceId"
          numeric
          emptyOption={t('devices.field.wholeHouse')}
          label={t('devices.field.device')}
          options={devices.map((d) => ({ value: d.id, label: d.name }))}
          testId="plan-device"
        />
        <TextField
          control={form.control}
          name="content"
          label={t('devices.field.content')}
          testId="plan-content"
        />
        {/* A run-hours plan falls due by its device's hours, never on a date. */}
        {type !== 'duration' && (
          <DateField
            control={form.control}
            name="plannedDate"
            nullable
            label={t('devices.field.plannedDate')}
            testId="plan-date"
          />
        )}
        <NumberField
          control={form.control}
          name="interval"
          min={1}
          label={`${t('devices.field.interval')} (${t(`devices.intervalUnit.${type}`, { count: interval ?? 0 })})`}
          testId="plan-interval"
        />
        <TextAreaField
          control={form.control}
          name="description"
          label={t('devices.field.description')}
        />
      </div>
    </FormDialog>
  );
}
