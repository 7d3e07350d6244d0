import { Fragment } from 'react';
import { FormGroup, Intent } from '@blueprintjs/core';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  ALARM_DATE_TYPES,
  ALARM_NOTICE_TYPES,
  ALARM_PHONE_STATUSES,
  ALARM_PHONE_TYPES,
  alarmPhoneInputSchema,
  type AlarmPhone,
  type AlarmPhoneInput,
  type AlarmPlace,
} from '../../contract/alarms';
import { FormDialog } from '../forms/FormDialog';
import {
  CheckField,
  CheckListField,
  NumberField,
  SelectField,
  TextField,
  TimeField,
  optionsOf,
  useErrorText,
} from '../forms/fields';
import { useSchemaForm } from '../forms/useSchemaForm';

export interface PhoneDialogProps {
  /** The entry to edit, or null for a new one. */
  phone: AlarmPhone | null;
  places: readonly AlarmPlace[];
  onSave(input: AlarmPhoneInput & { id?: number }): Promise<boolean>;
  onClose(): void;
}

const blank = (places: readonly AlarmPlace[]): AlarmPhoneInput => ({
  farmId: places[0]?.farmId ?? 0,
  houseId: null,
  phone: '',
  period1Start: '08:00',
  period1End: '18:00',
  period2Start: null,
  period2End: null,
  dateType: 'daily',
  repeatMinutes: 30,
  closable: true,
  alarmType: 'phoneAndMessage',
  delayMinutes: 0,
  status: 'open',
  noticeTypes: ['block', 'device', 'network'],
  description: '',
});

const PERIODS = [
  ['period1', 'period1Start', 'period1End'],
  ['period2', 'period2Start', 'period2End'],
] as const;

type PeriodKey = (typeof PERIODS)[number][1 | 2];

/** Create or edit one alarm phone entry. */
export function PhoneDialog({ phone, places, onSave, onClose }: PhoneDialogProps) {
  const { t } = useTranslation();
  const form = useSchemaForm(alarmPhoneInputSchema, phone ?? blank(places));
  const farmId = useWatch({ control: form.control, name: 'farmId' });
  const errorText = useErrorText();
  // A period's two times share one label, so their problem shows under the pair.
  const periodProblem = (start: PeriodKey, end: PeriodKey) =>
    errorText(form.formState.errors[start] ?? form.formState.errors[end]);
  const farms = [...new Map(places.map((p) => [p.farmId, p.farmName]))];
  return (
    <FormDialog
      title={t(phone ? 'alarms.settings.edit' : 'alarms.settings.add')}
      form={form}
      onSave={(v) => onSave(phone ? { ...v, id: phone.id } : v)}
      onClose={onClose}
      style={{ width: 640 }}
      saveTestId="phone-save"
    >
      <div className="roost-alarms__form">
        <SelectField
          control={form.control}
          name="farmId"
          numeric
          label={t('alarms.settings.farm')}
          options={farms.map(([id, name]) => ({ value: id, label: name }))}
          // A house belongs to one farm: another farm starts from the whole farm.
          onChanged={() => form.setValue('houseId', null)}
        />
        <SelectField
          control={form.control}
          name="houseId"
          numeric
          emptyOption={t('alarms.settings.wholeFarm')}
          label={t('alarms.settings.house')}
          options={places
            .filter((p) => p.farmId === farmId)
            .map((p) => ({ value: p.houseId, label: p.houseName }))}
        />
        <TextField
          control={form.control}
          name="phone"
          label={t('alarms.settings.phone')}
          testId="phone-input"
        />
        <SelectField
          control={form.control}
          name="alarmType"
          label={t('alarms.settings.alarmType')}
          options={optionsOf(ALARM_PHONE_TYPES, (x) => t(`alarms.settings.alarmTypes.${x}`))}
        />
        {PERIODS.map(([period, start, end]) => (
          <FormGroup
            key={period}
            label={t(`alarms.settings.${period}`)}
            intent={periodProblem(start, end) ? Intent.DANGER : Intent.NONE}
            helperText={periodProblem(start, end)}
          >
            <div className="roost-alarms__periods">
              {[start, end].map((key, i) => (
                <Fragment key={key}>
                  {i > 0 && '–'}
                  <TimeField
                    bare
                    nullable
                    control={form.control}
                    name={key}
                    label={t(`alarms.settings.${period}`)}
                  />
                </Fragment>
              ))}
            </div>
          </FormGroup>
        ))}
        <SelectField
          control={form.control}
          name="dateType"
          label={t('alarms.settings.dateType')}
          options={optionsOf(ALARM_DATE_TYPES, (x) => t(`alarms.settings.dateTypes.${x}`))}
        />
        <SelectField
          control={form.control}
          name="status"
          label={t('alarms.settings.status')}
          options={optionsOf(ALARM_PHONE_STATUSES, (x) => t(`alarms.settings.statuses.${x}`))}
        />
        <NumberField
          control={form.control}
          name="repeatMinutes"
          min={0}
          max={1440}
          label={t('alarms.settings.repeatMinutes')}
        />
        <NumberField
          control={form.control}
          name="delayMinutes"
          min={0}
          max={1440}
          label={t('alarms.settings.delayMinutes')}
        />
        <CheckListField
          control={form.control}
          name="noticeTypes"
          label={t('alarms.settings.noticeType')}
          options={optionsOf(ALARM_NOTICE_TYPES, (x) => t(`alarms.settings.noticeTypes.${x}`))}
        />
        <FormGroup label={t('alarms.settings.closable')}>
          <CheckField
            control={form.control}
            name="closable"
            label={t('alarms.settings.closable')}
          />
        </FormGroup>
      </div>
      <TextField
        control={form.control}
        name="description"
        maxLength={200}
        label={t('alarms.settings.description')}
      />
    </FormDialog>
  );
}
