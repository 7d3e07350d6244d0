import {
  Button,
  Callout,
  Card,
  Checkbox,
  FormGroup,
  H3,
  HTMLSelect,
  InputGroup,
  Intent,
  Tag,
} from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useState } from 'react';
import { type TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ALARM_CAUSES, type AlarmCause } from '../../contract/alarms';
import type { Silence } from '../../contract/notify';
import { SilencesStore } from '../../stores/NotifyStores';
import { formatTime } from '../alarms/format';
import { showSuccessToast } from '../toaster';
import { ListTable } from '../ListTable';
import { useStores } from '../useStores';
import './notify.css';

const HOURS = [1, 2, 4, 8, 12, 24, 48, 72, 168, 720] as const;
const STATE_INTENT: Record<Silence['state'], Intent> = {
  active: Intent.WARNING,
  planned: Intent.PRIMARY,
  expired: Intent.NONE,
  ended: Intent.NONE,
};

/** The list table's one row while there are no rows to show: loading, or none. */
const listMessage = (t: TFunction, rows: readonly Silence[] | null) =>
  rows === null ? t('notify.common.loading') : rows.length === 0 ? t('notify.common.none') : null;

/**
 * /alarm/silences: the silences and maintenance windows of the user's farms and houses; a user
 * who may operate makes one (a house or a whole farm, one cause or all, a reason, how long) or
 * ends one early. The owner is the user who made it; both changes go to the operation log.
 */
export const SilencesPage = observer(function SilencesPage() {
  const { t } = useTranslation();
  const { api, session, alarms } = useStores();
  const [store] = useState(() => new SilencesStore(api));
  // Another console made or ended one, or one ran out: the list follows without a reload.
  const changes = alarms.silenceChanges;
  const [place, setPlace] = useState('');
  const [cause, setCause] = useState<AlarmCause | ''>('');
  const [reason, setReason] = useState('');
  const [hours, setHours] = useState<number>(4);
  const [busy, setBusy] = useState(false);
  useEffect(() => void store.load().catch(() => undefined), [store, changes]);
  const farms = useMemo(
    () => [...new Map(store.places.map((p) => [p.farmId, p.farmName]))],
    [store.places],
  );
  // House managers silence only their houses: the farm-wide choice is not theirs.
  const farmWide = session.roleKey !== 'shack_manager';
  const chosen = place || (farmWide ? `farm:${farms[0]?.[0] ?? ''}` : '');

  const create = async () => {
    const [kind, id] = chosen.split(':');
    const houseId = kind === 'house' ? Number(id) : null;
    const farmId =
      kind === 'house' ? store.places.find((p) => p.houseId === houseId)?.farmId : Number(id);
    if (!farmId) return;
    setBusy(true);
    try {
      await store.create({
        farmId,
        houseId,
        cause: cause || null,
        reason,
        endsAt: new Date(Date.now() + hours * 3_600_000).toISOString(),
      });
      setReason('');
      showSuccessToast(t('notify.silences.created'));
    } catch {
      // The client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };
  const end = async (id: number) => {
    try {
      await store.end(id);
      showSuccessToast(t('notify.silences.endedToast'));
    } catch {
      // Shown by the client.
    }
  };

  return (
    <div className="roost-notify" data-testid="silences-page">
      <H3>{t('notify.silences.title')}</H3>
      <p className="roost-notify__muted">{t('notify.silences.intro')}</p>
      {session.canOperate ? (
        <Card compact>
          <div className="roost-notify__form">
            <FormGroup label={t('notify.silences.place')} labelFor="silence-place">
              <HTMLSelect
                id="silence-place"
                value={chosen}
                onChange={(e) => setPlace(e.target.value)}
              >
                {farms.map(([farmId, farmName]) => (
                  <optgroup key={farmId} label={farmName}>
                    {farmWide && (
                      <option value={`farm:${farmId}`}>
                        {`${farmName} · ${t('notify.common.wholeFarm')}`}
                      </option>
                    )}
                    {store.places
                      .filter((p) => p.farmId === farmId)
                      .map((p) => (
                        <option key={p.houseId} value={`house:${p.houseId}`}>
                          {`${farmName} · ${p.houseName}`}
                        </option>
                      ))}
                  </optgroup>
                ))}
              </HTMLSelect>
            </FormGroup>
            <FormGroup label={t('notify.common.cause')} labelFor="silence-cause">
              <HTMLSelect
                id="silence-cause"
                value={cause}
                onChange={(e) => setCause(e.target.value as AlarmCause | '')}
              >
                <option value="">{t('notify.common.allCauses')}</option>
                {ALARM_CAUSES.map((c) => (
                  <option key={c} value={c}>
                    {t(`alarms.cause.${c}`)}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
            <FormGroup
              className="roost-notify__wide"
              label={t('notify.silences.reason')}
              labelFor="silence-reason"
            >
              <InputGroup
                id="silence-reason"
                value={reason}
                maxLength={200}
                placeholder={t('notify.silences.reasonPlaceholder')}
                onChange={(e) => setReason(e.target.value)}
              />
            </FormGroup>
            <FormGroup label={t('notify.silences.hours')} labelFor="silence-hours">
              <HTMLSelect
                id="silence-hours"
                value={hours}
                onChange={(e) => setHours(Number(e.target.value))}
              >
                {HOURS.map((h) => (
                  <option key={h} value={h}>
                    {t('notify.silences.hoursValue', { count: h })}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
            <Button
              intent={Intent.PRIMARY}
              icon="notifications-snooze"
              loading={busy}
              disabled={!chosen}
              onClick={() => void create()}
              data-testid="silence-create"
            >
              {t('notify.silences.create')}
            </Button>
          </div>
        </Card>
      ) : (
        <Callout>{t('notify.silences.cannotOperate')}</Callout>
      )}
      <Checkbox
        checked={store.showAll}
        label={t('notify.silences.showAll')}
        onChange={(e) => void store.setShowAll(e.currentTarget.checked).catch(() => undefined)}
      />
      <ListTable
        label={t('notify.silences.title')}
        scrollClassName="roost-notify__scroll"
        testId="silence-list"
        headers={[
          t('notify.silences.place'),
          t('notify.common.cause'),
          t('notify.silences.reason'),
          t('notify.silences.owner'),
          t('notify.silences.starts'),
          t('notify.silences.ends'),
          t('notify.silences.state'),
          t('notify.silences.held'),
          '',
        ]}
        message={listMessage(t, store.rows)}
      >
        {store.rows?.map((s) => (
          <tr key={s.id} data-testid={`silence-${s.id}`}>
            <td>{`${s.farmName} · ${s.houseName ?? t('notify.common.wholeFarm')}`}</td>
            <td>{s.cause ? t(`alarms.cause.${s.cause}`) : t('notify.common.allCauses')}</td>
            <td>{s.reason}</td>
            <td>{s.owner}</td>
            <td>{formatTime(s.startsAt)}</td>
            <td>{formatTime(s.endedAt ?? s.endsAt)}</td>
            <td>
              <Tag minimal intent={STATE_INTENT[s.state]} data-testid="silence-state">
                {t(`notify.silences.states.${s.state}`)}
              </Tag>
              {s.endedBy && (
                <span className="roost-notify__muted">
                  {' '}
                  {t('notify.silences.ended', { who: s.endedBy })}
                </span>
              )}
            </td>
            <td>{s.heldAlarms}</td>
            <td>
              {session.canOperate && (s.state === 'active' || s.state === 'planned') && (
                <Button small intent={Intent.DANGER} minimal onClick={() => void end(s.id)}>
                  {t('notify.silences.end')}
                </Button>
              )}
            </td>
          </tr>
        ))}
      </ListTable>
    </div>
  );
});
