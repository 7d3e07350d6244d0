import type { Db } from './db/client';
import { operationLogs } from './db/schema';
import type { LogSource } from '../src/contract/domain';
import type { FunctionKey, Operation } from '../src/contract/operationLog';

export interface LogEntry {
  operator: { id: number | null; name: string };
  /** The console function the change was made in, e.g. `user.modifyPwd`. */
  function: FunctionKey;
  /** A key and its parameters: the log stores no sentences, so it reads in any language. */
  operation: Operation;
  house?: { id: number; name: string } | null;
  remark?: string;
  source?: LogSource;
  networkId?: string;
}

/** Every change in Roost is written here, so it can be traced to who made it and how. */
export async function writeOperationLog(db: Db, entry: LogEntry): Promise<void> {
  await db.insert(operationLogs).values({
    operatorId: entry.operator.id,
    operatorName: entry.operator.name,
    function: entry.function,
    operation: entry.operation.key,
    params: entry.operation.params,
    houseId: entry.house?.id ?? null,
    houseName: entry.house?.name ?? '',
    remark: entry.remark ?? '',
    source: entry.source ?? 'computer',
    networkId: entry.networkId ?? '',
  });
}
