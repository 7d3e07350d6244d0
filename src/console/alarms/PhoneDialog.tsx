import {
  Checkbox,
  Classes,
  FormGroup,
  HTMLSelect,
  InputGroup,
  NumericInput,
} from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import {
  ALARM_DATE_TYPES,
  ALARM_NOTICE_TYPES,
  ALARM_PHONE_STATUSES,
  ALARM_PHONE_TYPES,
  type AlarmPhone,
  type AlarmPhoneInput,
  type AlarmPlace,
} from '../../contract/alarms';
import { ChoiceField, SettingsDialog, useSettingsForm } from './SettingsDialog';
import { TimeField } from '../TimeField';

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

/** Create or edit one alarm phone entry. */
export function PhoneDialog({ phone, places, onSave, onClose }: PhoneDialogProps) {
  const { t } = useTranslation();
  const [v, set] = useSettingsForm<AlarmPhoneInput>(() => phone ?? blank(places));
  const farms = [...new Map(places.map((p) => [p.farmId, p.farmName]))];
  const notices = v.noticeTypes ?? [];
  const time = (key: 'period1Start' | 'period1End' | 'period2Start' | 'period2End') => (
    <TimeField
      aria-label={t(
        key.startsWith('period1') ? 'alarms.settings.period1' : 'alarms.settings.period2',
      )}
      value={v[key] ?? ''}
      onChange={(x) => set({ [key]: x || null })}
    />
  );
  return (
    <SettingsDialog
      editing={phone !== null}
      onSave={() => onSave(phone ? { ...v, id: phone.id } : v)}
      onClose={onClose}
      style={{ width: 640 }}
      saveTestId="phone-save"
    >
      <div className="roost-alarms__form">
        <FormGroup label={t('alarms.settings.farm')}>
          <HTMLSelect
            fill
            value={String(v.farmId)}
            onChange={(e) => set({ farmId: Number(e.target.value), houseId: null })}
          >
            {farms.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('alarms.settings.house')}>
          <HTMLSelect
            fill
            value={String(v.houseId ?? '')}
            onChange={(e) => set({ houseId: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">{t('alarms.settings.wholeFarm')}</option>
            {places
              .filter((p) => p.farmId === v.farmId)
              .map((p) => (
                <option key={p.houseId} value={p.houseId}>
                  {p.houseName}
                </option>
              ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('alarms.settings.phone')}>
          <InputGroup
            value={v.phone}
            onValueChange={(x) => set({ phone: x })}
            data-testid="phone-input"
          />
        </FormGroup>
        <ChoiceField
          label={t('alarms.settings.alarmType')}
          value={v.alarmType}
          choices={ALARM_PHONE_TYPES}
          text={(x) => t(`alarms.settings.alarmTypes.${x}`)}
          onChange={(alarmType) => set({ alarmType })}
        />
        <FormGroup label={t('alarms.settings.period1')}>
          <div className="roost-alarms__periods">
            {time('period1Start')}–{time('period1End')}
          </div>
        </FormGroup>
        <FormGroup label={t('alarms.settings.period2')}>
          <div className="roost-alarms__periods">
            {time('period2Start')}–{time('period2End')}
          </div>
        </FormGroup>
        <ChoiceField
          label={t('alarms.settings.dateType')}
          value={v.dateType}
          choices={ALARM_DATE_TYPES}
          text={(x) => t(`alarms.settings.dateTypes.${x}`)}
          onChange={(dateType) => set({ dateType })}
        />
        <ChoiceField
          label={t('alarms.settings.status')}
          value={v.status}
          choices={ALARM_PHONE_STATUSES}
          text={(x) => t(`alarms.settings.statuses.${x}`)}
          onChange={(status) => set({ status })}
        />
        <FormGroup label={t('alarms.settings.repeatMinutes')}>
          <NumericInput
            fill
            min={0}
            max={1440}
            value={v.repeatMinutes}
            onValueChange={(n) => set({ repeatMinutes: Number.isFinite(n) ? n : 0 })}
          />
        </FormGroup>
        <FormGroup label={t('alarms.settings.delayMinutes')}>
          <NumericInput
            fill
            min={0}
            max={1440}
            value={v.delayMinutes}
            onValueChange={(n) => set({ delayMinutes: Number.isFinite(n) ? n : 0 })}
          />
        </FormGroup>
        <FormGroup label={t('alarms.settings.noticeType')}>
          {ALARM_NOTICE_TYPES.map((x) => (
            <Checkbox
              key={x}
              inline
              label={t(`alarms.settings.noticeTypes.${x}`)}
              checked={notices.includes(x)}
              onChange={() =>
                set({
                  noticeTypes: notices.includes(x)
                    ? notices.filter((n) => n !== x)
                    : [...notices, x],
                })
              }
            />
          ))}
        </FormGroup>
        <FormGroup label={t('alarms.settings.closable')}>
          <Checkbox
            checked={v.closable}
            label={t('alarms.settings.closable')}
            onChange={() => set({ closable: !v.closable })}
          />
        </FormGroup>
      </div>
      <FormGroup label={t('alarms.settings.description')} className={Classes.FILL}>
        <InputGroup
          value={v.description ?? ''}
          maxLength={200}
          onValueChange={(x) => set({ description: x })}
        />
      </FormGroup>
    </SettingsDialog>
  );
}
