import { useEffect, useState } from 'react';
import { Button, ButtonGroup, Card, Classes, H5, HTMLTable } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { feedMeasureOf } from '../../contract/production';
import { FlocksStore } from '../../stores/FlocksStore';
import { FlockCompareStore } from '../../stores/FlockCompareStore';
import { ScrollRegion } from '../ScrollRegion';
import { showSuccessToast } from '../toaster';
import { useStores } from '../useStores';
import { reminderText } from '../reminders/RemindersPanel';
import { FarmHousePicker } from './FarmHousePicker';
import { FlockCompare } from './FlockCompare';
import { KpiCharts } from './KpiCharts';
import { ExportButtons } from './ExportButtons';
import { KpiTable } from './KpiTable';
import { WarningLimitsCard } from './WarningLimitsCard';
import { aliveText, figure } from '../../i18n/numbers';
import './production.css';

type AnyText = Parameters<typeof reminderText>[0];

/** /production/flocks: a house's flocks, one flock's KPIs against the breed standard, the day's tasks. */
export const FlocksPage = observer(function FlocksPage() {
  const { t, i18n } = useTranslation();
  const { api, session } = useStores();
  const [store] = useState(() => new FlocksStore(api));
  const [compare] = useState(() => new FlockCompareStore(api));
  useEffect(() => void store.loadPlaces().catch(() => undefined), [store]);
  const kpis = store.kpis;
  const layer = kpis?.flock.layer ?? false;

  const decide = async (task: (typeof store.tasks)[number], state: 'done' | 'skipped') => {
    try {
      await store.decide(task, state);
    } catch {
      return;
    }
    showSuccessToast(t('production.tasks.saved'));
  };

  return (
    <div className="roost-production" data-testid="flocks">
      <div className="roost-production__bar">
        <FarmHousePicker
          id="flocks-house"
          label={t('production.flocks.house')}
          pick="house"
          places={store.places}
          value={String(store.houseId ?? '')}
          onChange={(v) => void store.chooseHouse(Number(v)).catch(() => undefined)}
        />
        <ExportButtons
          path={kpis ? `/production/kpi/export?flockId=${kpis.flock.id}` : null}
          name={kpis ? `flock-${kpis.flock.id}-kpi` : 'kpi'}
        />
      </div>

      {store.tasks.length > 0 && (
        <Card className="roost-production__month" data-testid="flock-tasks">
          <H5>{t('production.tasks.title')}</H5>
          <ul>
            {store.tasks.map((task) => (
              <li key={task.id}>
                {reminderText(t as unknown as AnyText, task)}{' '}
                {session.canOperate && (
                  <ButtonGroup variant="minimal">
                    <Button size="small" onClick={() => void decide(task, 'done')}>
                      {t('production.tasks.done')}
                    </Button>
                    <Button size="small" onClick={() => void decide(task, 'skipped')}>
                      {t('production.tasks.skip')}
                    </Button>
                  </ButtonGroup>
                )}
              </li>
            ))}
          </ul>
        </Card>
      )}

      <H5>{t('production.flocks.history')}</H5>
      <ScrollRegion className="roost-production__scroll" label={t('production.flocks.history')}>
        <HTMLTable
          compact
          interactive
          className="roost-production__grid"
          data-testid="flock-history"
        >
          <thead>
            <tr>
              <th>{t('production.flocks.placed')}</th>
              <th>{t('production.flocks.closed')}</th>
              <th>{t('production.flocks.breed')}</th>
              <th>{t('production.flocks.headCount')}</th>
            </tr>
          </thead>
          <tbody>
            {store.flocks?.length === 0 && (
              <tr>
                <td colSpan={4}>{t('production.flocks.none')}</td>
              </tr>
            )}
            {store.flocks?.map((f) => (
              <tr
                key={f.id}
                aria-selected={store.flockId === f.id}
                tabIndex={0}
                onClick={() => void store.chooseFlock(f.id).catch(() => undefined)}
                onKeyDown={(e) =>
                  e.key === 'Enter' && void store.chooseFlock(f.id).catch(() => undefined)
                }
              >
                <td>{f.placedOn}</td>
                <td>{f.closedOn ?? t('production.flocks.open')}</td>
                <td>{f.breedName ?? '—'}</td>
                <td>{aliveText(i18n.language, f.headCount)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </ScrollRegion>

      {kpis && (
        <>
          <div className="roost-production__cards" data-testid="kpi-cards">
            <Stat
              label={t('production.kpi.alive')}
              value={aliveText(i18n.language, kpis.toDate.alive)}
              testId="kpi-alive"
            />
            <Stat
              label={t('production.kpi.mortalityPct')}
              value={figure(kpis.toDate.mortalityPct, 2)}
              testId="kpi-mortality"
            />
            <Stat
              label={t(`production.kpi.${feedMeasureOf(kpis)}`)}
              value={figure(kpis.toDate[feedMeasureOf(kpis)], 3)}
              testId="kpi-feed-measure"
            />
            {!layer && (
              <Stat
                label={t('production.kpi.epef')}
                value={figure(kpis.toDate.epef, 0)}
                testId="kpi-epef"
              />
            )}
            <Stat
              label={t('production.flocks.feedTotal')}
              value={figure(kpis.toDate.feedKg / 1000, 2)}
              testId="kpi-feed"
            />
            <Stat
              label={t('production.flocks.recordedDays')}
              value={String(kpis.toDate.recordedDays)}
              testId="kpi-recorded"
            />
            <Stat
              label={t('production.flocks.missingDays')}
              value={String(kpis.toDate.missingDays)}
              testId="kpi-missing"
            />
            <Stat
              label={t('production.flocks.energyTotal')}
              value={figure(kpis.toDate.energyKwh, 0)}
              testId="kpi-energy"
            />
          </div>
          <KpiCharts kpis={kpis} />
          <FlockCompare store={compare} flockId={kpis.flock.id} layer={layer} />
          <KpiTable kpis={kpis} />
        </>
      )}
      {!kpis && store.flocks && store.flocks.length > 0 && (
        <p className={Classes.TEXT_MUTED}>{t('production.flocks.choose')}</p>
      )}
      {store.houseId !== null && (
        <WarningLimitsCard
          target={{ kind: 'house', houseId: store.houseId }}
          name={store.places.find((p) => p.houseId === store.houseId)?.houseName ?? ''}
          readOnly={!session.canOperate}
        />
      )}
    </div>
  );
});

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card compact data-testid={testId}>
      <div className={Classes.TEXT_MUTED}>{label}</div>
      <div className="roost-production__stat">{value}</div>
    </Card>
  );
}
