import { Classes } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { changePct, type WallMortality } from '../../contract/wallProduction';
import { grouped, money, NO_FIGURE, percent } from '../../i18n/numbers';
import { type WallPanelProps } from './WallPanels';

/** A signed change in %, whole: "+12 %", "−8 %" (a true minus sign, as the wall's figures use). */
function signed(change: number): string {
  const whole = Math.round(change);
  if (whole === 0) return '±0 %';
  return `${whole > 0 ? '+' : '−'}${Math.abs(whole)} %`;
}

function Row({
  id,
  label,
  value,
  note,
}: {
  id: string;
  label: string;
  value: string;
  note: string;
}) {
  return (
    <li data-testid={`wall-production-${id}`}>
      <span className="roost-wall__figure-label">{label}</span>
      <span className="roost-wall__figure-value" data-testid="value">
        {value}
      </span>
      <span className={`roost-wall__figure-note ${Classes.TEXT_MUTED}`} data-testid="note">
        {note}
      </span>
    </li>
  );
}

/**
 * The day's production and power of the wall's scope: mortality against the breed standard,
 * feed, water and electricity against the day before, today's electricity cost. Before anyone
 * has entered today's deaths it shows yesterday's mortality, named as such: a wall at 08:00
 * would otherwise show a dash all morning.
 */
export const WallProductionPanel = observer(function WallProductionPanel({
  store,
}: WallPanelProps) {
  const { t, i18n } = useTranslation();
  const p = store.production;
  if (!p) return null;
  const language = i18n.language;
  const figure = (value: number | null, unit: string) =>
    value === null ? NO_FIGURE : `${grouped(value, language, value < 100 ? 1 : 0)} ${unit}`;
  const mortalityNote = (m: WallMortality) =>
    [
      m.standardPct === null
        ? null
        : t('wall.production.standard', { value: percent(m.standardPct, 2) }),
      t('wall.production.entered', { entered: m.enteredHouses, houses: m.flockHouses }),
    ]
      .filter(Boolean)
      .join(' · ');
  const todayEntered = p.mortality.today.enteredHouses > 0;
  const mortality = todayEntered ? p.mortality.today : p.mortality.yesterday;
  const against = (
    today: number | null,
    before: number | null,
    key: 'againstYesterday' | 'againstDayBefore',
  ) => {
    const change = changePct(today, before);
    return change === null
      ? t('wall.production.noComparison')
      : t(`wall.production.${key}`, { change: signed(change), hour: p.hour + 1 });
  };
  const energy =
    p.energyKwh.today === null
      ? NO_FIGURE
      : [
          figure(p.energyKwh.today, 'kWh'),
          p.cost && money(p.cost.amount, p.cost.currency, language),
        ]
          .filter(Boolean)
          .join(' · ');
  return (
    <section className="roost-wall__panel roost-wall__production" data-testid="wall-production">
      <h2 className="roost-wall__heading">{t('wall.production.title')}</h2>
      <ul className="roost-wall__figures">
        <Row
          id="mortality"
          label={t(
            todayEntered ? 'wall.production.mortality' : 'wall.production.mortalityYesterday',
          )}
          value={percent(mortality.pct, 2)}
          note={
            mortality.enteredHouses === 0 && !todayEntered
              ? t('wall.production.noneEntered')
              : mortalityNote(mortality)
          }
        />
        <Row
          id="feed"
          label={t('wall.production.feed')}
          value={figure(p.feedKg.yesterday, 'kg')}
          note={against(p.feedKg.yesterday, p.feedKg.dayBefore, 'againstDayBefore')}
        />
        <Row
          id="water"
          label={t('wall.production.water')}
          value={figure(p.waterL.today, 'L')}
          note={against(p.waterL.today, p.waterL.yesterday, 'againstYesterday')}
        />
        <Row
          id="energy"
          label={t('wall.production.energy')}
          value={energy}
          note={against(p.energyKwh.today, p.energyKwh.yesterday, 'againstYesterday')}
        />
      </ul>
    </section>
  );
});
