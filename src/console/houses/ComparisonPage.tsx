import {
  Button,
  Callout,
  Card,
  FormGroup,
  Intent,
  NonIdealState,
  Switch,
  Tag,
} from '@blueprintjs/core';
import { ComparisonIcon, DownloadIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { MAX_COMPARED_HOUSES, type CompareAlign, type Comparison } from '../../contract/houses';
import { METRICS } from '../../contract/metrics';
import { TREND_GRANULARITIES, type TrendGranularity } from '../../contract/overview';
import './houses.css';
import { fetchComparison } from '../../stores/houseQueries';
import { SERIES_COLORS } from './LineChart';
import { useExport } from './useExport';
import { useStores } from '../useStores';
import { pointsOf, windowRange, WINDOWS, type CompareWindow } from './comparison/compareWindow';
import { ComparisonView } from './comparison/ComparisonView';
import { CompletenessRow, maxInterval, useCompleteness } from './CompletenessCard';
import { AddHouseSelect } from './comparison/AddHouseSelect';
import { ToolbarSelect } from './comparison/ToolbarSelect';
import { useExtraMetrics } from './comparison/extraMetrics';
import { DateInput } from '../forms/DateInput';
import { formatDate } from '../../i18n/dates';

const GRANULARITY_KEYS = { minute: 'minute', hour: 'hour', day: 'day', month: 'monthly' } as const;
/** Today in the browser's calendar (toISOString gave the UTC day: yesterday before 08:00 in China). */
const today = () => formatDate(new Date());

/** House comparison: one metric of 1–6 houses over a window. */
export const ComparisonPage = observer(function ComparisonPage() {
  const { api, houses } = useStores();
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const exportFile = useExport();
  const [selected, setSelected] = useState<number[]>([]);
  const [chosenMetric, setMetric] = useState('temperature');
  const [span, setSpan] = useState<CompareWindow>('week');
  const [custom, setCustom] = useState({ from: today(), to: today() });
  const [granularity, setGranularity] = useState<TrendGranularity>('hour');
  const [align, setAlign] = useState<CompareAlign>('time');
  const [message, setMessage] = useState<string | null>(null);
  const [comparison, setComparison] = useState<Comparison | null>(null);
  const [shown, setShown] = useState<{ houseIds: number[]; from: number; to: number } | null>(null);
  const completeness = useCompleteness(shown?.houseIds ?? [], shown ?? undefined);
  const extraMetrics = useExtraMetrics(api, selected);
  // An extra parameter of a house that has left the comparison (or whose list is still loading)
  // reads as temperature; derived, not reset, so the choice returns with its house.
  const metricOffered =
    METRICS.some((m) => m.key === chosenMetric) ||
    extraMetrics.some((m) => m.value === chosenMetric);
  const metric = metricOffered ? chosenMetric : 'temperature';
  const options = useMemo(
    () => houses.all.filter((h) => !selected.includes(h.houseId)),
    [houses.all, selected],
  );

  const add = (houseId: number) => {
    // At most six houses; the seventh is refused with a message.
    if (selected.length >= MAX_COMPARED_HOUSES) return setMessage(t('houses.compare.tooMany'));
    setMessage(null);
    setSelected([...selected, houseId]);
  };
  const query = () => {
    const range = windowRange(span, Date.now(), custom);
    if (!range) return null;
    return { houseIds: selected.join(','), metric, granularity, align, ...range };
  };
  const compare = async () => {
    if (selected.length === 0) return setMessage(t('houses.compare.none'));
    const q = query();
    if (!q) return;
    setMessage(null);
    try {
      setComparison(await fetchComparison(api, q));
      // Completeness is read for at most the window's last 62 days (the server's limit).
      setShown({
        houseIds: [...selected],
        from: Math.max(q.from, q.to - 61 * 86_400_000),
        to: q.to,
      });
    } catch (error) {
      if (isApiError(error)) setMessage(error.message);
    }
  };
  const download = (format: 'csv' | 'xlsx') => {
    const q = query();
    if (!q || selected.length === 0) return;
    void exportFile('/houses/compare/export', pointsOf(q, granularity), { ...q, format });
  };

  return (
    <div className="roost-page" data-testid="page-houseCompared">
      <Card style={{ marginBottom: 12 }}>
        <div className="roost-houses-toolbar" style={{ alignItems: 'flex-end' }}>
          <FormGroup
            label={t('houses.compare.houses')}
            labelFor="compare-add"
            style={{ marginBottom: 0 }}
          >
            <AddHouseSelect id="compare-add" options={options} onAdd={add} />
          </FormGroup>
          <ToolbarSelect
            id="compare-metric"
            label={t('houses.compare.metric')}
            value={metric}
            options={[
              ...METRICS.map((m) => ({ value: m.key, label: m.label[lang] })),
              ...extraMetrics,
            ]}
            onChange={setMetric}
          />
          <ToolbarSelect
            id="compare-window"
            label={t('houses.compare.window')}
            value={span}
            options={WINDOWS.map((w) => ({ value: w, label: t(`houses.compare.${w}`) }))}
            onChange={setSpan}
          />
          {span === 'custom' && (
            <>
              <FormGroup
                label={t('houses.compare.from')}
                labelFor="compare-from"
                style={{ marginBottom: 0 }}
              >
                <DateInput
                  id="compare-from"
                  value={custom.from}
                  onChange={(from) => setCustom({ ...custom, from })}
                />
              </FormGroup>
              <FormGroup
                label={t('houses.compare.to')}
                labelFor="compare-to"
                style={{ marginBottom: 0 }}
              >
                <DateInput
                  id="compare-to"
                  value={custom.to}
                  onChange={(to) => setCustom({ ...custom, to })}
                />
              </FormGroup>
            </>
          )}
          <ToolbarSelect
            id="compare-granularity"
            label={t('houses.compare.granularity')}
            value={granularity}
            options={TREND_GRANULARITIES.map((g) => ({
              value: g,
              label: t(`houses.compare.${GRANULARITY_KEYS[g]}`),
            }))}
            onChange={setGranularity}
          />
          <Switch
            label={t('houses.compare.alignByAge')}
            checked={align === 'age'}
            style={{ marginBottom: 6 }}
            data-testid="compare-align"
            onChange={(e) => setAlign(e.currentTarget.checked ? 'age' : 'time')}
          />
          <Button
            intent={Intent.PRIMARY}
            icon={<ComparisonIcon />}
            data-testid="compare-run"
            onClick={() => void compare()}
          >
            {t('houses.compare.show')}
          </Button>
          <Button
            icon={<DownloadIcon />}
            data-testid="compare-export-csv"
            onClick={() => download('csv')}
          >
            {t('houses.export.csv')}
          </Button>
          <Button
            icon={<DownloadIcon />}
            data-testid="compare-export-xlsx"
            onClick={() => download('xlsx')}
          >
            {t('houses.export.xlsx')}
          </Button>
        </div>
        <div
          style={{ display: 'flex', flexWrap: 'wrap', gap: 6, marginTop: 8 }}
          data-testid="compare-selected"
        >
          {selected.map((id, i) => {
            const h = houses.get(id);
            const name = h ? `${h.farmName} / ${h.houseName}` : String(id);
            return (
              <Tag
                key={id}
                style={{ borderLeft: `4px solid ${SERIES_COLORS[i] ?? '#2d72d2'}` }}
                onRemove={() => setSelected(selected.filter((s) => s !== id))}
              >
                {name}
              </Tag>
            );
          })}
        </div>
        {message && (
          <Callout intent={Intent.WARNING} style={{ marginTop: 8 }} data-testid="compare-message">
            {message}
          </Callout>
        )}
      </Card>
      {comparison ? (
        <ComparisonView
          comparison={comparison}
          intervalSeconds={maxInterval(completeness)}
          completeness={
            <CompletenessRow
              answer={completeness}
              names={new Map(comparison.houses.map((h) => [h.houseId, h.houseName]))}
            />
          }
        />
      ) : (
        <NonIdealState icon={<ComparisonIcon size={40} />} title={t('houses.compare.empty')} />
      )}
    </div>
  );
});
