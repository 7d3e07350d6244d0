import { Card, Classes, Intent, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { type House } from '../../stores/HousesStore';
import { type HouseStatus } from '../../stores/houseStatus';
import { useStores } from '../useStores';
import { alarmText, freshness, metricText, modeText } from './format';
import { formatNumber } from '../../i18n/numbers';
import { useNow } from './useNow';

export const STATUS_INTENTS: Record<HouseStatus, Intent> = {
  offline: Intent.NONE,
  alarm: Intent.DANGER,
  empty: Intent.WARNING,
  normal: Intent.SUCCESS,
};

export interface HouseCardProps {
  /** The house shown; the card observes it and re-renders alone when it changes. */
  house: House;
  /** Opens the house (its monitor). */
  /** Where the card leads: the house's monitor. */
  href: string;
}

function faultClass(fault: string | null): string | undefined {
  if (!fault) return undefined;
  return fault === 'error' ? 'roost-fault--error' : 'roost-fault--other';
}

const Freshness = observer(function Freshness({ house }: { house: House }) {
  const { t } = useTranslation();
  const now = useNow();
  const fresh = freshness(t, house.live.lastTs, now);
  return (
    <span
      className={fresh.stale ? 'roost-stale' : Classes.TEXT_MUTED}
      data-testid="card-fresh"
      data-stale={fresh.stale}
    >
      {fresh.stale && house.live.lastTs ? `${t('houses.fresh.stale')} · ` : ''}
      {fresh.text}
    </span>
  );
});

/** One house of the overview: status, climate against target, flock and freshness. */
export const HouseCard = observer(function HouseCard({ house, href }: HouseCardProps) {
  const { t, i18n } = useTranslation();
  const { silences } = useStores();
  const { live } = house;
  const status = house.status;
  const top = live.alarm.top;
  // The alarm is shown as ever, but nobody is being called about it: the card says so.
  const silenced = top !== null && silences.holds(house.farmId, house.houseId, top.cause);
  const alarm = alarmText(t, i18n.language === 'zh' ? 'zh' : 'en', top);
  const metric = (key: string) => metricText(t, key, live.metrics, live.faults);
  const temp = metric('temperature');
  const target = live.metrics['temperature_target'];
  const cell = (label: string, key: string) => {
    const m = metric(key);
    return (
      <span title={label}>
        <span className={Classes.TEXT_MUTED}>{label} </span>
        <span className={faultClass(m.fault)} data-testid={`card-${key}`}>
          {m.text}
        </span>
      </span>
    );
  };
  return (
    <Card
      interactive
      className={`roost-house-card${status === 'offline' ? ' roost-house-card--offline' : ''}`}
      data-testid="house-card"
      data-house-id={house.houseId}
      data-status={status}
    >
      <div className="roost-house-card__head">
        {/* A real link, stretched over the card by CSS: Tab reaches it, Enter opens it, a
            middle click opens a new tab, and a screen reader hears where it leads. */}
        <Link
          to={href}
          className="roost-house-card__name roost-house-card__link"
          data-testid="card-name"
          aria-label={t('houses.card.open', { name: `${house.houseName}, ${house.farmName}` })}
          title={`${house.houseName} · ${house.farmName}`}
        >
          {house.houseName}
        </Link>
        <Tag minimal intent={STATUS_INTENTS[status]} data-testid="card-status">
          {t(`houses.status.${status}`)}
        </Tag>
      </div>
      {/* Its own line, the card's full width: beside the house name and the status it was
          cut to "Gaocheng Broiler F…" on every card at 1440 px. A longer name still ends in
          an ellipsis, with the whole name on hover (the link's title) and to screen readers. */}
      <span
        className={`roost-house-card__farm ${Classes.TEXT_MUTED}`}
        title={house.farmName}
        data-testid="card-farm"
      >
        {house.farmName}
      </span>
      <div className="roost-house-card__temp">
        <strong className={faultClass(temp.fault)} data-testid="card-temperature">
          {temp.text}
        </strong>
        {target !== undefined && (
          <span className={Classes.TEXT_MUTED}>
            {t('houses.card.target', { value: `${formatNumber(target)} ℃` })}
          </span>
        )}
      </div>
      <div className="roost-house-card__grid">
        {cell(t('houses.card.humidity'), 'humidity')}
        {cell(t('houses.card.co2'), 'co2')}
        {cell(t('houses.card.nh3'), 'nh3')}
        {cell(t('houses.card.ventilation'), 'ventilation_level')}
        <span>
          <span className={Classes.TEXT_MUTED}>{t('houses.card.age')} </span>
          {house.ageDays === null ? '—' : t('houses.card.ageDays', { count: house.ageDays })}
        </span>
        <span>
          <span className={Classes.TEXT_MUTED}>{t('houses.card.alive')} </span>
          {formatNumber(live.metrics['alive'] ?? house.headCount ?? 0)}
        </span>
      </div>
      <div className="roost-house-card__foot">
        <span className={Classes.TEXT_MUTED}>{modeText(t, live.mode)}</span>
        <Freshness house={house} />
      </div>
      <div
        className={`roost-house-card__alarm ${Classes.TEXT_SMALL}`}
        // Orange once someone has answered the alarm: still open, no longer waiting for a person.
        style={{
          color: top ? (top.acknowledged ? '#c87619' : '#cd4246') : undefined,
          minHeight: 16,
        }}
        data-testid="card-alarm"
        data-acknowledged={top?.acknowledged ? 'true' : undefined}
        data-silenced={silenced ? 'true' : undefined}
      >
        {/* Only the alarm's text gives way to a narrow card: what is being done about it
            (acknowledged, silenced) stays whole after it. */}
        <span className="roost-house-card__alarm-text" title={alarm || undefined}>
          {alarm}
        </span>
        {(top?.acknowledged || silenced) && (
          <span className="roost-house-card__alarm-state">
            {top?.acknowledged ? ` · ${t('alarms.state.acknowledged')}` : null}
            {silenced ? ` · ${t('notify.silences.marked')}` : null}
          </span>
        )}
      </div>
    </Card>
  );
});
