import { z } from 'zod';
import { type ApiClient } from '../api/client';

const totalSchema = z.object({ total: z.number().int() });

/**
 * How many alarms in the caller's scope await acknowledgement: the list's total of `active`
 * alarms (one row asked for, not read). The count the hub pushes is of open alarms, which an
 * acknowledgement does not change, so the badge's colour needs this second number.
 */
export async function fetchUnacknowledgedCount(api: ApiClient): Promise<number> {
  const answer = await api.get('/alarm/list', {
    schema: totalSchema,
    query: { state: 'active', size: 1 },
    // Like the count poll: the live indicator tells of a lost connection, not a toast per try.
    quiet: (error) => error.kind === 'network' || error.kind === 'timeout',
  });
  return answer.total;
}
