import { HTMLTable } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import {
  feedMeasureOf,
  type FeedMeasure,
  type FlockKpis,
  type KpiDay,
} from '../../contract/production';
import { ScrollRegion } from '../ScrollRegion';
import { aliveText, figure } from '../../i18n/numbers';

interface Column {
  key: string;
  value: (d: KpiDay, language: string) => string;
  layer?: boolean;
  feed?: FeedMeasure;
}

const COLUMNS: readonly Column[] = [
  { key: 'alive', value: (d, language) => aliveText(language, d.alive) },
  { key: 'mortalityPct', value: (d) => figure(d.mortalityPct, 2) },
  { key: 'bodyWeightG', value: (d) => figure(d.bodyWeightG, 0) },
  { key: 'dailyGainG', value: (d) => figure(d.dailyGainG, 1) },
  { key: 'feedPerBirdG', value: (d) => figure(d.feedPerBirdG, 1) },
  // The feed measure of the flock's kind (feedMeasureOf): one of the three shows.
  { key: 'fcr', value: (d) => figure(d.fcr, 3), feed: 'fcr' },
  { key: 'feedPerEggKg', value: (d) => figure(d.feedPerEggKg, 3), feed: 'feedPerEggKg' },
  { key: 'feedPerDozenKg', value: (d) => figure(d.feedPerDozenKg, 3), feed: 'feedPerDozenKg' },
  { key: 'waterFeedRatio', value: (d) => figure(d.waterFeedRatio, 2) },
  { key: 'epef', value: (d) => figure(d.epef, 0), layer: false },
  { key: 'henDayPct', value: (d) => figure(d.henDayPct, 1), layer: true },
  { key: 'eggMassG', value: (d) => figure(d.eggMassG, 1), layer: true },
  { key: 'energyPerBirdKwh', value: (d) => figure(d.energyPerBirdKwh, 3) },
];

const columnsOf = (layer: boolean, feed: FeedMeasure) =>
  COLUMNS.filter(
    (c) =>
      (c.layer === undefined || c.layer === layer) && (c.feed === undefined || c.feed === feed),
  );

/** The flock's days, newest first; a missing day says so instead of showing zeros. */
export function KpiTable({ kpis }: { kpis: FlockKpis }) {
  const { t, i18n } = useTranslation();
  const columns = columnsOf(kpis.flock.layer, feedMeasureOf(kpis));
  return (
    <ScrollRegion className="roost-production__scroll" label={t('production.flocks.days')}>
      <HTMLTable compact striped className="roost-production__grid" data-testid="kpi-table">
        <thead>
          <tr>
            <th>{t('production.input.day')}</th>
            <th>{t('production.flocks.age')}</th>
            {columns.map((c) => (
              <th key={c.key}>{t(`production.kpi.${c.key}` as 'production.kpi.fcr')}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...kpis.days].reverse().map((d) => (
            <tr key={d.day} data-day={d.day} data-recorded={d.recorded}>
              <td>{d.day}</td>
              <td>{d.ageDay}</td>
              {d.recorded ? (
                columns.map((c) => <td key={c.key}>{c.value(d, i18n.language)}</td>)
              ) : (
                <td colSpan={columns.length} className="roost-production__missing">
                  {t('production.flocks.missingDay')}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </ScrollRegion>
  );
}
