import {
  concentratorStatus,
  terminalStatus,
  type Concentrator,
  type ExtraParameter,
  type LiveForStatus,
  type Terminal,
} from '../../src/contract/devices';
import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { parseJson } from '../db/jsonColumn';
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

function filterWhere(scope: Scope, filter: Filter, params: unknown[], t: string): string[] {
  const where = [houseScopeWhere(scope, params, `${t}.house_id`)];
  if (filter.id !== undefined) where.push(`${t}.id = $${params.push(filter.id)}`);
  if (filter.houseId !== undefined) where.push(`${t}.house_id = $${params.push(filter.houseId)}`);
  if (filter.search)
    where.push(
      `(${t}.name ilike $${params.push(`%${filter.search.replace(/[\\%_]/g, '\\$&')}%`)} or ${t}.code ilike $${params.length} or ${t}.model ilike $${params.length})`,
    );
  return where;
}

export async function readTerminals(
  database: Database,
  scope: Scope,
  filter: Filter & { concentratorId?: number } = {},
): Promise<Terminal[]> {
  const params: unknown[] = [];
  const where = filterWhere(scope, filter, params, 'd');
  if (filter.concentratorId !== undefined)
    where.push(`d.concentrator_id = $${params.push(filter.concentratorId)}`);
  const rows = await database.query<
    Omit<Terminal, 'status' | 'runHours' | 'extras'> & {
      extras: ExtraParameter[] | string;
      online: boolean | null;
      liveDevices: unknown;
      runSeconds: number | null;
    }
  >(
    `select d.id, d.house_id as "houseId", h.name as "houseName", d.concentrator_id as "concentratorId",
       c.name as "concentratorName", d.name, d.code, d.control_port as "controlPort",
       d.current_port as "currentPort", d.sensor_port as "sensorPort", d.model, d.address,
       d.can_input as "canInput", d.type, d.extras, s.online, s.devices as "liveDevices",
       ${runSecondsSql('r', 'd.control_port')} as "runSeconds"
     from terminal_devices d join houses h on h.id = d.house_id
     left join concentrators c on c.id = d.concentrator_id
     left join house_state s on s.house_id = d.house_id
     left join device_runtime r on r.house_id = d.house_id
     where ${where.join(' and ')} order by h.name, d.name, d.id`,
    params,
  );
  return rows.map(({ online, liveDevices, runSeconds, extras, ...row }) => ({
    ...row,
    extras: parseJson(extras),
    status: terminalStatus(liveOf(online, liveDevices), row.controlPort),
    runHours: Math.round((Number(runSeconds ?? 0) / 3600) * 100) / 100,
  }));
}

export async function readConcentrators(
  database: Database,
  scope: Scope,
  filter: Filter = {},
): Promise<Concentrator[]> {
  const params: unknown[] = [];
  const where = filterWhere(scope, filter, params, 'c');
  const rows = await database.query<
    Omit<Concentrator, 'status'> & {
      online: boolean | null;
      liveDevices: unknown;
      ports: string[] | string;
    }
  >(
    `select c.id, c.house_id as "houseId", h.name as "houseName", c.type, c.code, c.name, c.model,
       c.address, c.version, s.online, s.devices as "liveDevices",
       (select count(*)::int from terminal_devices d where d.concentrator_id = c.id) as devices,
       coalesce((select json_agg(d.control_port) from terminal_devices d where d.concentrator_id = c.id), '[]'::json) as ports
     from concentrators c join houses h on h.id = c.house_id
     left join house_state s on s.house_id = c.house_id
     where ${where.join(' and ')} order by h.name, c.name, c.id`,
    params,
  );
  return rows.map(({ online, liveDevices, ports, ...row }) => ({
    ...row,
    status: concentratorStatus(liveOf(online, liveDevices), parseJson(ports)),
  }));
}
