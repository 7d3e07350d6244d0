import { useEffect, useState } from 'react';
import { Alert, Button, ButtonGroup, Classes, HTMLTable, Intent } from '@blueprintjs/core';
import { AddIcon, EditIcon, TrashIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { type AlarmInputSetting, type AlarmPhone } from '../../contract/alarms';
import { AlarmSettingsStore, type AlarmSettingKind } from '../../stores/AlarmSettingsStore';
import { ArrowKeyTabs } from '../ArrowKeyTabs';
import { ScrollRegion } from '../ScrollRegion';
import { showSuccessToast } from '../toaster';
import { useStores } from '../useStores';
import { InputDialog } from './InputDialog';
import { PhoneDialog } from './PhoneDialog';
import './alarms.css';

type Editing<T> = T | 'new' | null;

/** /alarm/settings: alarm phones (per farm or house) and alarm inputs (per gateway). */
export const AlarmSettingsPage = observer(function AlarmSettingsPage() {
  const { t } = useTranslation();
  const { api, session } = useStores();
  const [settings] = useState(() => new AlarmSettingsStore(api));
  const { places, phones, inputs } = settings;
  const [phoneEdit, setPhoneEdit] = useState<Editing<AlarmPhone>>(null);
  const [inputEdit, setInputEdit] = useState<Editing<AlarmInputSetting>>(null);
  const [deleting, setDeleting] = useState<{
    kind: AlarmSettingKind;
    id: number;
    name: string;
    remaining: number;
  } | null>(null);
  const operate = session.canOperate;

  useEffect(() => {
    void settings.reload().catch(() => undefined);
    settings.loadPlaces().catch(() => undefined);
  }, [settings]);

  const save = async (write: () => Promise<unknown>) => {
    try {
      await write();
    } catch {
      return false;
    }
    showSuccessToast(t('alarms.settings.saved'));
    await settings.reload().catch(() => undefined);
    return true;
  };
  const remove = async () => {
    if (!deleting) return;
    setDeleting(null);
    try {
      const r = await settings.remove(deleting.kind, deleting.id);
      showSuccessToast(t('alarms.settings.deleted', { remaining: r.remaining }));
    } catch {
      return;
    }
    await settings.reload().catch(() => undefined);
  };
  const yes = (b: boolean) => t(b ? 'alarms.settings.yes' : 'alarms.settings.no');
  const actions = (onEdit: () => void, onDelete: () => void) =>
    operate && (
      <ButtonGroup variant="minimal">
        <Button icon={<EditIcon />} aria-label={t('alarms.settings.edit')} onClick={onEdit} />
        <Button
          icon={<TrashIcon />}
          intent={Intent.DANGER}
          aria-label={t('alarms.settings.delete')}
          onClick={onDelete}
        />
      </ButtonGroup>
    );
  const empty = (cols: number) => (
    <tr>
      <td colSpan={cols} className={Classes.TEXT_MUTED}>
        {t('alarms.settings.empty')}
      </td>
    </tr>
  );

  const phoneTable = (
    <div>
      {operate && (
        <Button
          className="roost-alarms__add"
          icon={<AddIcon />}
          text={t('alarms.settings.add')}
          onClick={() => setPhoneEdit('new')}
          data-testid="phone-add"
        />
      )}
      <ScrollRegion className="roost-alarms__scroll" label={t('alarms.settings.phones')}>
        <HTMLTable className="roost-alarms__table" compact striped>
          <thead>
            <tr>
              {[
                'farm',
                'house',
                'phone',
                'period1',
                'period2',
                'dateType',
                'repeatMinutes',
                'closable',
                'alarmType',
                'delayMinutes',
                'status',
                'noticeType',
                'description',
                'actions',
              ].map((k) => (
                <th key={k}>{t(`alarms.settings.${k}` as 'alarms.settings.farm')}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(phones ?? []).map((p) => (
              <tr key={p.id} data-testid={`phone-${p.id}`}>
                <td>{p.farmName}</td>
                <td>{p.houseName ?? t('alarms.settings.wholeFarm')}</td>
                <td>{p.phone}</td>
                <td className="roost-alarms__nowrap">{`${p.period1Start}–${p.period1End}`}</td>
                <td className="roost-alarms__nowrap">
                  {p.period2Start ? `${p.period2Start}–${p.period2End ?? ''}` : ''}
                </td>
                <td>{t(`alarms.settings.dateTypes.${p.dateType}`)}</td>
                <td>{p.repeatMinutes}</td>
                <td>{yes(p.closable)}</td>
                <td>{t(`alarms.settings.alarmTypes.${p.alarmType}`)}</td>
                <td>{p.delayMinutes}</td>
                <td>{t(`alarms.settings.statuses.${p.status}`)}</td>
                <td>
                  {p.noticeTypes.map((n) => t(`alarms.settings.noticeTypes.${n}`)).join(', ')}
                </td>
                <td>{p.description}</td>
                <td>
                  {actions(
                    () => setPhoneEdit(p),
                    () =>
                      setDeleting({
                        kind: 'alarmPhone',
                        id: p.id,
                        name: p.phone,
                        remaining: (phones ?? []).filter((x) => x.farmId === p.farmId).length - 1,
                      }),
                  )}
                </td>
              </tr>
            ))}
            {phones?.length === 0 && empty(14)}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
    </div>
  );

  const inputTable = (
    <div>
      {operate && (
        <Button
          className="roost-alarms__add"
          icon={<AddIcon />}
          text={t('alarms.settings.add')}
          onClick={() => setInputEdit('new')}
        />
      )}
      <ScrollRegion className="roost-alarms__scroll" label={t('alarms.settings.inputs')}>
        <HTMLTable className="roost-alarms__table" compact striped>
          <thead>
            <tr>
              {[
                'gateway',
                'house',
                'diCode',
                'content',
                'horn',
                'shieldTest',
                'relayType',
                'important',
                'actions',
              ].map((k) => (
                <th key={k}>{t(`alarms.settings.${k}` as 'alarms.settings.farm')}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(inputs ?? []).map((i) => (
              <tr key={i.id}>
                <td>{i.networkId}</td>
                <td>{i.houseName}</td>
                <td>{i.diCode}</td>
                <td>{i.content}</td>
                <td>{yes(i.horn)}</td>
                <td>{yes(i.shieldTest)}</td>
                <td>{t(`alarms.settings.relayTypes.${i.relayType}`)}</td>
                <td>{yes(i.important)}</td>
                <td>
                  {actions(
                    () => setInputEdit(i),
                    () =>
                      setDeleting({
                        kind: 'alarmInput',
                        id: i.id,
                        name: i.diCode,
                        remaining:
                          (inputs ?? []).filter((x) => x.gatewayId === i.gatewayId).length - 1,
                      }),
                  )}
                </td>
              </tr>
            ))}
            {inputs?.length === 0 && empty(9)}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
    </div>
  );

  return (
    <div className="roost-page roost-alarms" data-testid="page-alarm-settings">
      <ArrowKeyTabs
        id="alarm-settings"
        tabs={[
          { id: 'phones', title: t('alarms.settings.phones'), panel: phoneTable },
          { id: 'inputs', title: t('alarms.settings.inputs'), panel: inputTable },
        ]}
      />
      {phoneEdit && (
        <PhoneDialog
          phone={phoneEdit === 'new' ? null : phoneEdit}
          places={places}
          onSave={(b) => save(() => settings.savePhone(b))}
          onClose={() => setPhoneEdit(null)}
        />
      )}
      {inputEdit && (
        <InputDialog
          input={inputEdit === 'new' ? null : inputEdit}
          places={places}
          onSave={(b) => save(() => settings.saveInput(b))}
          onClose={() => setInputEdit(null)}
        />
      )}
      <Alert
        isOpen={deleting !== null}
        intent={Intent.DANGER}
        icon={<TrashIcon />}
        confirmButtonText={t('alarms.settings.delete')}
        cancelButtonText={t('alarms.settings.cancel')}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      >
        <p data-testid="confirm-delete">
          {t('alarms.settings.confirmDelete', {
            name: deleting?.name ?? '',
            remaining: Math.max(0, deleting?.remaining ?? 0),
          })}
        </p>
      </Alert>
    </div>
  );
});
