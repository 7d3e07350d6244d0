import { Callout, H3, HTMLSelect, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlarmPhone } from '../../contract/alarms';
import { ESCALATION_MAX_LEVEL } from '../../contract/notify';
import { EscalationStore } from '../../stores/NotifyStores';
import { showSuccessToast } from '../toaster';
import { ListTable } from '../ListTable';
import { useStores } from '../useStores';
import './notify.css';

const LEVELS = Array.from({ length: ESCALATION_MAX_LEVEL + 1 }, (_, i) => i);
const CHANNELS: Record<string, Array<'sms' | 'voice'>> = {
  phoneAndMessage: ['sms', 'voice'],
  message: ['sms'],
  phone: ['voice'],
};

/** Whether an entry of level `level` would be called for the alarms `entry` is called for. */
const covers = (other: AlarmPhone, entry: AlarmPhone) =>
  other.status === 'open' &&
  other.farmId === entry.farmId &&
  (other.houseId === null || entry.houseId === null || other.houseId === entry.houseId);

/**
 * /alarm/escalation: the alarm phone entries in the order an alarm calls them (by place, then
 * level), each with what happens when nobody acknowledges: after its repeat interval the next
 * level is called, if there is one.
 */
export const EscalationPage = observer(function EscalationPage() {
  const { t } = useTranslation();
  const { api, session } = useStores();
  const [store] = useState(() => new EscalationStore(api));
  useEffect(() => void store.load().catch(() => undefined), [store]);

  const save = async (phoneId: number, level: number) => {
    try {
      await store.save(phoneId, level);
      showSuccessToast(t('notify.escalation.levelSaved'));
    } catch {
      // Shown by the client.
    }
  };
  const whenUnacknowledged = (p: AlarmPhone) => {
    if (p.repeatMinutes === 0) return t('notify.escalation.nextNever');
    const level = store.levelOf(p.id);
    const higher = store.ordered.some(
      (o) => o.id !== p.id && covers(o, p) && store.levelOf(o.id) === level + 1,
    );
    return higher
      ? t('notify.escalation.nextLevel', { count: p.repeatMinutes, level: level + 1 })
      : t('notify.escalation.nextNone');
  };

  return (
    <div className="roost-notify" data-testid="escalation-page">
      <H3>{t('notify.escalation.title')}</H3>
      <p className="roost-notify__muted">{t('notify.escalation.intro')}</p>
      {store.phones?.length === 0 && <Callout>{t('notify.escalation.noEntries')}</Callout>}
      <ListTable
        label={t('notify.escalation.title')}
        scrollClassName="roost-notify__scroll"
        testId="escalation-list"
        headers={[
          t('notify.escalation.place'),
          t('notify.escalation.level'),
          t('notify.escalation.phone'),
          t('notify.escalation.delay'),
          t('notify.escalation.repeat'),
          t('notify.escalation.channels'),
          t('notify.escalation.next'),
        ]}
        message={store.phones === null ? t('notify.common.loading') : null}
      >
        {store.ordered.map((p) => (
          <tr key={p.id} data-testid={`escalation-${p.id}`}>
            <td>{`${p.farmName} · ${p.houseName ?? t('notify.common.wholeFarm')}`}</td>
            <td>
              {session.canOperate ? (
                <HTMLSelect
                  className="roost-notify__level"
                  aria-label={t('notify.escalation.level')}
                  value={store.levelOf(p.id)}
                  onChange={(e) => void save(p.id, Number(e.target.value))}
                >
                  {LEVELS.map((l) => (
                    <option key={l} value={l}>
                      {l}
                    </option>
                  ))}
                </HTMLSelect>
              ) : (
                store.levelOf(p.id)
              )}
            </td>
            <td>{p.phone}</td>
            <td>{t('notify.escalation.delayValue', { count: p.delayMinutes })}</td>
            <td>
              {p.repeatMinutes > 0
                ? t('notify.escalation.repeatEvery', { count: p.repeatMinutes })
                : t('notify.escalation.never')}
            </td>
            <td>
              {(CHANNELS[p.alarmType] ?? []).map((c) => (
                <Tag key={c} minimal className="roost-notify__tag">
                  {t(`notify.common.channel.${c}`)}
                </Tag>
              ))}
            </td>
            <td>{whenUnacknowledged(p)}</td>
          </tr>
        ))}
      </ListTable>
    </div>
  );
});
