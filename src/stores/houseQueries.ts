import { type ApiClient, type Query } from '../api/client';
import { completenessSchema, type Completeness } from '../contract/completeness';
import { comparisonSchema, type Comparison, type CompareQuery } from '../contract/houses';
import { trendSchema, type Trend, type TrendQuery } from '../contract/overview';
import { alarmSchema, type Alarm } from '../contract/alarms';
import { pagedSchema } from '../contract/paged';

/**
 * The house pages' one-off reads: the open alarms of the monitor, the comparison and the trend
 * curves. Each answer is parsed here; the pages keep what they get for as long as they show it.
 */

const openAlarmsSchema = pagedSchema(alarmSchema);

/** The open alarms of one house (the monitor), newest first; at most 50, which no house nears. */
export async function fetchOpenAlarms(api: ApiClient, houseId: number): Promise<Alarm[]> {
  const page = await api.get('/alarm/list', {
    query: { houseId, state: 'open', size: 50 },
    schema: openAlarmsSchema,
    quiet: () => true,
  });
  return page.rows;
}

export function fetchComparison(api: ApiClient, query: CompareQuery): Promise<Comparison> {
  return api.get('/houses/compare', { query: query as Query, schema: comparisonSchema });
}

export function fetchTrend(api: ApiClient, query: TrendQuery, quiet = false): Promise<Trend> {
  return api.get('/trend/house', {
    query: query as Query,
    schema: trendSchema,
    quiet: quiet ? () => true : undefined,
  });
}

/** Per house and day, the share of promised readings stored (the monitor, the comparison). */
export function fetchCompleteness(
  api: ApiClient,
  query: { houseIds: number[]; from?: number; to?: number },
): Promise<Completeness> {
  return api.get('/houses/completeness', {
    query: {
      houseIds: query.houseIds.join(','),
      ...(query.from === undefined ? {} : { from: String(query.from) }),
      ...(query.to === undefined ? {} : { to: String(query.to) }),
    },
    schema: completenessSchema,
    quiet: () => true,
  });
}
