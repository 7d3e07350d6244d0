import { Card, Classes, H5, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Completeness, type HouseCompleteness } from '../../contract/completeness';
import { formatNumber } from '../../i18n/numbers';
import { fetchCompleteness } from '../../stores/houseQueries';
import { useStores } from '../useStores';

/** The completeness of houses over a window (ms), reloaded when they change; null until read. */
export function useCompleteness(
  houseIds: readonly number[],
  window?: { from: number; to: number },
): Completeness | null {
  const { api } = useStores();
  const [answer, setAnswer] = useState<{ key: string; data: Completeness | null } | null>(null);
  const key = houseIds.join(',');
  const from = window?.from;
  const to = window?.to;
  useEffect(() => {
    if (key === '') return;
    let cancelled = false;
    const houseIds = key.split(',').map(Number);
    fetchCompleteness(api, { houseIds, from, to })
      .then((data) => !cancelled && setAnswer({ key, data }))
      .catch(() => !cancelled && setAnswer({ key, data: null }));
    return () => {
      cancelled = true;
    };
  }, [api, key, from, to]);
  // An answer for other houses is not shown while the next one is on its way.
  return answer?.key === key ? answer.data : null;
}

/** The longest reading interval of the houses' gateways: the comparison's gaps are judged by it. */
export function maxInterval(answer: Completeness | null): number | null {
  const intervals = (answer?.rows ?? []).flatMap((r) =>
    r.intervalSeconds === null ? [] : [r.intervalSeconds],
  );
  return intervals.length === 0 ? null : Math.max(...intervals);
}

/** "91.7 %", or a dash when nothing was expected. */
export function shareText(percent: number | null): string {
  return percent === null ? '—' : `${formatNumber(percent)} %`;
}

/** The share of a whole window: its days' readings over its days' expected readings. */
export function windowShare(house: HouseCompleteness): number | null {
  const expected = house.days.reduce((n, d) => n + d.expected, 0);
  const readings = house.days.reduce((n, d) => n + d.readings, 0);
  return expected <= 0 ? null : Math.min(100, Math.round((readings / expected) * 1000) / 10);
}

const intentOf = (percent: number | null, min: number) =>
  percent === null ? Intent.NONE : percent < min ? Intent.WARNING : Intent.SUCCESS;

/** A house's window for each compared house (the comparison): one row a house. */
export function CompletenessRow({
  answer,
  names,
}: {
  answer: Completeness | null;
  names: ReadonlyMap<number, string>;
}) {
  const { t } = useTranslation();
  if (!answer) return null;
  return (
    <div
      className="roost-houses-toolbar"
      data-testid="compare-completeness"
      style={{ marginTop: 8 }}
    >
      <span className={Classes.TEXT_MUTED}>{t('houses.completeness.window')}</span>
      {answer.rows.map((house) => {
        const share = windowShare(house);
        return (
          <Tag
            key={house.houseId}
            minimal
            intent={intentOf(share, answer.minPercent)}
            data-testid="compare-completeness-house"
          >
            {names.get(house.houseId) ?? house.houseId}: {shareText(share)}
          </Tag>
        );
      })}
    </div>
  );
}

/** A house's last days (the monitor): one row a day, newest first. */
export function CompletenessCard({ answer }: { answer: Completeness | null }) {
  const { t } = useTranslation();
  const house = answer?.rows[0];
  const min = answer?.minPercent ?? 0;
  return (
    <Card data-testid="monitor-completeness">
      <H5>{t('houses.completeness.title')}</H5>
      {!house ? (
        <p className={Classes.TEXT_MUTED}>—</p>
      ) : house.intervalSeconds === null ? (
        <p className={Classes.TEXT_MUTED}>{t('houses.completeness.noGateway')}</p>
      ) : (
        <>
          <p className={Classes.TEXT_MUTED}>
            {t('houses.completeness.hint', { seconds: house.intervalSeconds })}
          </p>
          <HTMLTable compact striped style={{ width: '100%' }}>
            <thead>
              <tr>
                <th>{t('houses.completeness.day')}</th>
                <th>{t('houses.completeness.share')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {[...house.days].reverse().map((d) => (
                <tr key={d.day} data-testid="completeness-day" data-day={d.day}>
                  <td style={{ whiteSpace: 'nowrap' }}>{d.day}</td>
                  <td>
                    <Tag minimal intent={intentOf(d.percent, min)} data-testid="completeness-share">
                      {shareText(d.percent)}
                    </Tag>
                  </td>
                  <td className={Classes.TEXT_MUTED}>
                    {t('houses.completeness.readings', {
                      readings: formatNumber(d.readings),
                      expected: formatNumber(d.expected),
                    })}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </>
      )}
    </Card>
  );
}
