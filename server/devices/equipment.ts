import {
  concentratorStatus,
  terminalStatus,
  type Concentrator,
  type LiveForStatus,
  type Terminal,
} from '../../src/contract/devices';
import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { concentrators, deviceRuntime, terminalDevices } from '../db/devicesSchema';
import { parseJson } from '../db/jsonColumn';
import { houses } from '../db/schema';
import { houseState } from '../db/telemetrySchema';
import { houseScopeWhere } from './access';
import { runSecondsSql } from './runtime';

// The queries of concentrators and terminal devices, with their status read from the house's
// live state (the gateway's online flag and the controller's per-port states).

interface Filter {
  id?: number;
  houseId?: number;
  search?: string;
}

const liveOf = (online: boolean | null, devices: unknown): LiveForStatus | null =>
  online === null
    ? null
    : { online, devices: parseJson(devices as LiveForStatus['devices'] | string) };

/** The filter's conditions on a table of equipment (`t`: its id, house, name, code and model). */
function filterWhere(
  scope: Scope,
  filter: Filter,
  t: typeof concentrators | typeof terminalDevices,
): SQL | undefined {
  const pattern = filter.search ? `%${filter.search.replace(/[\\%_]/g, '\\$&')}%` : null;
  return and(
    houseScopeWhere(scope, t.houseId),
    filter.id !== undefined ? eq(t.id, filter.id) : undefined,
    filter.houseId !== undefined ? eq(t.houseId, filter.houseId) : undefined,
    pattern
      ? or(ilike(t.name, pattern), ilike(t.code, pattern), ilike(t.model, pattern))
      : undefined,
  );
}

export async function readTerminals(
  database: Database,
  scope: Scope,
  filter: Filter & { concentratorId?: number } = {},
): Promise<Terminal[]> {
  const d = terminalDevices;
  const rows = await database.db
    .select({
      id: d.id,
      houseId: d.houseId,
      houseName: houses.name,
      concentratorId: d.concentratorId,
      concentratorName: concentrators.name,
      name: d.name,
      code: d.code,
      controlPort: d.controlPort,
      currentPort: d.currentPort,
      sensorPort: d.sensorPort,
      model: d.model,
      address: d.address,
      canInput: d.canInput,
      type: d.type,
      extras: d.extras,
      online: houseState.online,
      liveDevices: houseState.devices,
      runSeconds: runSecondsSql(d.controlPort),
    })
    .from(d)
    .innerJoin(houses, eq(houses.id, d.houseId))
    .leftJoin(concentrators, eq(concentrators.id, d.concentratorId))
    .leftJoin(houseState, eq(houseState.houseId, d.houseId))
    .leftJoin(deviceRuntime, eq(deviceRuntime.houseId, d.houseId))
    .where(
      and(
        filterWhere(scope, filter, d),
        filter.concentratorId !== undefined
          ? eq(d.concentratorId, filter.concentratorId)
          : undefined,
      ),
    )
    .orderBy(asc(houses.name), asc(d.name), asc(d.id));
  return rows.map(({ online, liveDevices, runSeconds, extras, ...row }) => ({
    ...row,
    type: row.type as Terminal['type'],
    extras: parseJson(extras),
    status: terminalStatus(liveOf(online, liveDevices), row.controlPort),
    runHours: Math.round(((runSeconds ?? 0) / 3600) * 100) / 100,
  }));
}

export async function readConcentrators(
  database: Database,
  scope: Scope,
  filter: Filter = {},
): Promise<Concentrator[]> {
  const c = concentrators;
  const d = terminalDevices;
  const rows = await database.db
    .select({
      id: c.id,
      houseId: c.houseId,
      houseName: houses.name,
      type: c.type,
      code: c.code,
      name: c.name,
      model: c.model,
      address: c.address,
      version: c.version,
      online: houseState.online,
      liveDevices: houseState.devices,
      devices: sql<number>`(select count(*)::int from ${d} where ${d.concentratorId} = ${c.id})`,
      ports: sql<
        string[] | string
      >`coalesce((select json_agg(${d.controlPort}) from ${d} where ${d.concentratorId} = ${c.id}), '[]'::json)`,
    })
    .from(c)
    .innerJoin(houses, eq(houses.id, c.houseId))
    .leftJoin(houseState, eq(houseState.houseId, c.houseId))
    .where(filterWhere(scope, filter, c))
    .orderBy(asc(houses.name), asc(c.name), asc(c.id));
  return rows.map(({ online, liveDevices, ports, ...row }) => ({
    ...row,
    type: row.type as Concentrator['type'],
    status: concentratorStatus(liveOf(online, liveDevices), parseJson(ports)),
  }));
}
