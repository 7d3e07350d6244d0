import type { Db } from './db/client';
import { operationLogs } from './db/schema';
import type { LogSource } from '../src/contract/domain';

export interface LogEntry {
  operator: { id: number | null; name: string };
  /** The console function the change was made in, e.g. `user.modifyPwd`. */
  function: string;
  operation: string;
  house?: { id: number; name: string } | null;
  remark?: string;
  source?: LogSource;
  networkId?: string;
}

/** Every change in Roost is written here (spec §3, DESIGN.md §4). */
export async function writeOperationLog(db: Db, entry: LogEntry): Promise<void> {
  await db.insert(operationLogs).values({
    operatorId: entry.operator.id,
    operatorName: entry.operator.name,
    function: entry.function,
    operation: entry.operation,
    houseId: entry.house?.id ?? null,
    houseName: entry.house?.name ?? '',
    remark: entry.remark ?? '',
    source: entry.source ?? 'computer',
    networkId: entry.networkId ?? '',
  });
}
