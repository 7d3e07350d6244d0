import type { Command, CommandState } from '../../src/contract/envcontrol';
import type { UpgradeStage } from '../../src/contract/gateway';
import type { Query } from '../db/client';

/** The columns every command read selects, joined with its house and gateway. */
export const COMMAND_SELECT = `c.id, c.house_id as "houseId", h.name as "houseName", g.network_id as "networkId",
  c.kind, c.state, c.params, c.read_back as "readBack", c.reason, c.requested_by_name as "requestedBy",
  c.created_at as "createdAt", c.sent_at as "sentAt", c.finished_at as "finishedAt", c.expires_at as "expiresAt",
  u.version as "upVersion", u.from_version as "upFrom", u.file_name as "upFile", u.sha256 as "upSha",
  u.stage as "upStage", u.percent as "upPercent"`;
/** Upgrade commands carry their file and progress in `gateway_upgrades`, beside the state. */
export const COMMAND_FROM = `gateway_commands c join houses h on h.id = c.house_id join gateways g on g.id = c.gateway_id
  left join gateway_upgrades u on u.command_id = c.id`;

interface CommandRow {
  id: string;
  houseId: number;
  houseName: string;
  networkId: string;
  kind: Command['kind'];
  state: CommandState;
  params: unknown;
  readBack: unknown;
  reason: string | null;
  requestedBy: string;
  createdAt: Date | string;
  sentAt: Date | string | null;
  finishedAt: Date | string | null;
  expiresAt: Date | string;
  upVersion: string | null;
  upFrom: string | null;
  upFile: string | null;
  upSha: string | null;
  upStage: string | null;
  upPercent: number | null;
}

const iso = (v: Date | string): string => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null): string | null => (v === null ? null : iso(v));
/** jsonb comes back parsed from PGlite and node-postgres alike; text from older drivers. */
const json = (v: unknown): Record<string, number> =>
  (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, number>;

/** One presenter for the REST answer and the live event, so polling never drifts from live. */
export function presentCommand(row: CommandRow): Command {
  return {
    id: row.id,
    houseId: Number(row.houseId),
    houseName: row.houseName,
    networkId: row.networkId,
    kind: row.kind,
    state: row.state,
    params: json(row.params),
    readBack: row.readBack === null ? null : json(row.readBack),
    reason: row.reason,
    requestedBy: row.requestedBy,
    createdAt: iso(row.createdAt),
    sentAt: isoOrNull(row.sentAt),
    finishedAt: isoOrNull(row.finishedAt),
    expiresAt: iso(row.expiresAt),
    upgrade:
      row.upVersion === null
        ? null
        : {
            version: row.upVersion,
            fromVersion: row.upFrom ?? '',
            fileName: row.upFile ?? '',
            sha256: row.upSha ?? '',
            stage: (row.upStage as UpgradeStage | null) ?? null,
            percent: row.upPercent === null ? null : Number(row.upPercent),
          },
  };
}

export async function readCommands(query: Query, ids: readonly string[]): Promise<Command[]> {
  if (ids.length === 0) return [];
  const rows = await query<CommandRow>(
    `select ${COMMAND_SELECT} from ${COMMAND_FROM} where c.id = any($1::text[]) order by c.created_at`,
    [ids],
  );
  return rows.map(presentCommand);
}

export async function commandsOfHouse(
  query: Query,
  houseId: number,
  limit: number,
): Promise<Command[]> {
  const rows = await query<CommandRow>(
    `select ${COMMAND_SELECT} from ${COMMAND_FROM} where c.house_id = $1 order by c.created_at desc limit $2`,
    [houseId, limit],
  );
  return rows.map(presentCommand);
}

/** The gateway's stored parameters (what it last reported or read back). */
export async function paramsOfGateway(
  query: Query,
  gatewayId: number,
): Promise<Record<string, number>> {
  const [row] = await query<{ params: unknown }>(
    'select params from gateway_params where gateway_id = $1',
    [gatewayId],
  );
  return row ? json(row.params) : {};
}

/** Same keys, same values. */
function sameValues(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
}

/**
 * Stores a gateway's new values and writes one modify record per value that changed. The
 * caller's transaction locks the gateway's row first, so two reports never interleave. The
 * values are the catalogue's (replies.ts), so a report writes at most one row per parameter,
 * in one statement; a report equal to the stored set writes nothing.
 */
export async function recordParams(
  query: Query,
  change: {
    gatewayId: number;
    houseId: number | null;
    values: Record<string, number>;
    source: 'console' | 'local';
    operatorName: string;
    commandId: string | null;
    /** A full report replaces the set; a read-back merges into it. */
    replace: boolean;
  },
): Promise<number> {
  const [row] = await query<{ params: unknown }>(
    'select params from gateway_params where gateway_id = $1 for update',
    [change.gatewayId],
  );
  const known = row !== undefined;
  const before = known ? json(row.params) : {};
  const after = change.replace ? { ...change.values } : { ...before, ...change.values };
  if (known && sameValues(before, after)) return 0;
  await query(
    `insert into gateway_params (gateway_id, params, reported_at) values ($1, $2::jsonb, now())
     on conflict (gateway_id) do update set params = excluded.params, reported_at = now()`,
    [change.gatewayId, JSON.stringify(after)],
  );
  // The first report is the starting point, not a change anybody made.
  if (!known || change.houseId === null) return 0;
  const changed = Object.entries(change.values).filter(([key, value]) => before[key] !== value);
  if (changed.length === 0) return 0;
  await query(
    `insert into param_changes (house_id, gateway_id, source, operator_name, command_id, key, old_value, new_value)
     select $1::int, $2::int, $3::text, $4::text, $5::text, c.key, c.old_value, c.new_value
     from unnest($6::text[], $7::float8[], $8::float8[]) as c(key, old_value, new_value)`,
    [
      change.houseId,
      change.gatewayId,
      change.source,
      change.operatorName,
      change.commandId,
      changed.map(([key]) => key),
      changed.map(([key]) => before[key] ?? null),
      changed.map(([, value]) => value),
    ],
  );
  return changed.length;
}
