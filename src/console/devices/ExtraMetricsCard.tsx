import { useEffect, useMemo, useState } from 'react';
import { Card, Classes, H5 } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { extraTrendSchema, type ExtraTrend } from '../../contract/devices';
import { type House } from '../../stores/HousesStore';
import { LineChart, SERIES_COLORS } from '../houses/LineChart';
import { formatTime } from '../houses/format';
import { formatNumber } from '../../i18n/numbers';
import { useStores } from '../useStores';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The monitor's card of a house's extra parameters (a dust sensor, a scale): each one's latest
 * value and its 24-hour curve, extended live by the house's full-rate readings. Nothing shows
 * for a house without any.
 */
export const ExtraMetricsCard = observer(function ExtraMetricsCard({ house }: { house: House }) {
  const { t } = useTranslation();
  const { api } = useStores();
  const [trend, setTrend] = useState<ExtraTrend | null>(null);
  const houseId = house.houseId;
  useEffect(() => {
    let cancelled = false;
    const to = Date.now();
    api
      .get('/device/extraTrend', {
        query: { houseId, from: to - DAY_MS, to },
        schema: extraTrendSchema,
      })
      .then((r) => !cancelled && setTrend(r))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [api, houseId]);
  const { metrics } = house.live;
  const readings = house.readings;
  const series = useMemo(
    () =>
      (trend?.series ?? []).map((s) => {
        const last = s.points.at(-1)?.t ?? 0;
        const live = (readings[s.code] ?? []).filter((p) => p.t > last);
        return { ...s, points: [...s.points, ...live] };
      }),
    [trend, readings],
  );
  if (series.length === 0) return null;
  return (
    <Card className="roost-monitor__wide" data-testid="monitor-extras">
      <H5>{t('devices.monitor.extras')}</H5>
      <div className="roost-stat-grid">
        {series.map((s) => (
          <div key={s.code} data-testid={`extra-${s.code}`}>
            <div className={Classes.TEXT_MUTED}>{`${s.name} · ${s.deviceName}`}</div>
            <div
              className="roost-stat__value"
              style={{ fontSize: 20 }}
              data-testid={`extra-value-${s.code}`}
            >
              {metrics[s.code] === undefined
                ? '—'
                : `${formatNumber(metrics[s.code]!)}${s.unit ? ` ${s.unit}` : ''}`}
            </div>
          </div>
        ))}
      </div>
      <div className="roost-monitor">
        {series.map((s, i) => (
          <LineChart
            key={s.code}
            height={160}
            unit={s.unit || undefined}
            formatX={(x) => formatTime(x, false)}
            series={[
              {
                key: s.code,
                label: `${s.name}${s.unit ? ` (${s.unit})` : ''}`,
                color: SERIES_COLORS[i % SERIES_COLORS.length] ?? '#2d72d2',
                points: s.points.map((p) => ({ x: p.t, y: p.v })),
              },
            ]}
          />
        ))}
      </div>
    </Card>
  );
});
