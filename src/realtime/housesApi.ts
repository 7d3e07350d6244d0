import { type ApiClient } from '../api/client';
import { overviewListSchema, type HouseOverview } from '../contract/overview';
import { plainOverviewList } from '../contract/plainOverview';

/** GET /api/overview/listOverview/: every house of the caller's scope (the poll path). */
export async function fetchOverview(api: ApiClient, houseId?: number): Promise<HouseOverview[]> {
  const answer = await api.get('/overview/listOverview/', {
    schema: overviewListSchema,
    plain: plainOverviewList,
    query: { houseId },
    // The state machine says "polling" on screen; a toast every 30 s would only repeat it.
    quiet: (error) => error.kind === 'network' || error.kind === 'timeout',
  });
  return answer.rows;
}
