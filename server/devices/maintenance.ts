import type {
  MaintenancePlan,
  MaintenanceState,
  MaintenanceType,
} from '../../src/contract/devices';
import type { Scope } from '../auth/scope';
import type { Database, Query } from '../db/client';
import { Refusal } from '../refusal';
import { houseScopeWhere } from './access';
import { runSecondsSql } from './runtime';

/**
 * A duration plan is overdue once its device has run this much longer than the interval
 * (a tenth): a fan serviced a few hours late is due, one left running days past it is overdue.
 */
export const DURATION_OVERDUE_FACTOR = 1.1;

/** A day as `YYYY-MM-DD` in the installation's time zone: plans fall due by the farm's calendar. */
export function dayIn(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** `day` plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Where a plan stands today: dated plans by their date, duration plans by run hours. */
export function planState(
  plan: {
    type: MaintenanceType;
    plannedDate: string | null;
    interval: number | null;
    runHours: number | null;
  },
  today: string,
): MaintenanceState {
  if (plan.type === 'duration') {
    const hours = plan.runHours ?? 0;
    const limit = plan.interval ?? Infinity;
    if (hours >= limit * DURATION_OVERDUE_FACTOR) return 'overdue';
    return hours >= limit ? 'due' : 'ok';
  }
  if (plan.plannedDate === null) return 'ok';
  if (today > plan.plannedDate) return 'overdue';
  return today === plan.plannedDate ? 'due' : 'ok';
}

interface PlanRow {
  id: number;
  houseId: number;
  houseName: string;
  farmName: string;
  deviceId: number | null;
  deviceName: string | null;
  type: MaintenanceType;
  content: string;
  description: string;
  plannedDate: string | null;
  interval: number | null;
  runSeconds: number | null;
  baseRunSeconds: number;
}

const PLAN_SELECT = `p.id, p.house_id as "houseId", h.name as "houseName", f.name as "farmName",
  p.device_id as "deviceId", d.name as "deviceName", p.type, p.content, p.description,
  p.planned_date::text as "plannedDate", p.interval,
  ${runSecondsSql('r', 'd.control_port')} as "runSeconds", p.base_run_seconds as "baseRunSeconds"`;
const PLAN_FROM = `maintenance_plans p join houses h on h.id = p.house_id
  join farms f on f.id = h.farm_id
  left join terminal_devices d on d.id = p.device_id
  left join device_runtime r on r.house_id = d.house_id and d.control_port <> ''`;

export type PlanWithFarm = MaintenancePlan & { farmName: string };

/** Plans in the caller's scope with where each stands on `now`. */
export async function readPlans(
  database: Database,
  scope: Scope,
  now: Date,
  timeZone: string,
  filter: { id?: number; houseId?: number; deviceId?: number } = {},
): Promise<PlanWithFarm[]> {
  const params: unknown[] = [];
  const where = [houseScopeWhere(scope, params, 'p.house_id')];
  if (filter.id !== undefined) where.push(`p.id = $${params.push(filter.id)}`);
  if (filter.houseId !== undefined) where.push(`p.house_id = $${params.push(filter.houseId)}`);
  if (filter.deviceId !== undefined) where.push(`p.device_id = $${params.push(filter.deviceId)}`);
  const rows = await database.query<PlanRow>(
    `select ${PLAN_SELECT} from ${PLAN_FROM} where ${where.join(' and ')} order by h.name, p.id`,
    params,
  );
  const today = dayIn(now, timeZone);
  return rows.map((r) => {
    const runHours =
      r.type === 'duration'
        ? Math.max(0, (Number(r.runSeconds ?? 0) - Number(r.baseRunSeconds)) / 3600)
        : null;
    const plan = {
      id: r.id,
      houseId: r.houseId,
      houseName: r.houseName,
      farmName: r.farmName,
      deviceId: r.deviceId,
      deviceName: r.deviceName,
      type: r.type,
      content: r.content,
      description: r.description,
      plannedDate: r.plannedDate,
      interval: r.interval,
      runHours: runHours === null ? null : Math.round(runHours * 100) / 100,
    };
    return { ...plan, state: planState(plan, today) };
  });
}

/** A device's counted run seconds now (0 before its first reading). */
export async function runSecondsOf(query: Query, deviceId: number): Promise<number> {
  const [row] = await query<{ s: number | null }>(
    `select ${runSecondsSql('r', 'd.control_port')} as s from terminal_devices d
     left join device_runtime r on r.house_id = d.house_id
     where d.id = $1`,
    [deviceId],
  );
  return Number(row?.s ?? 0);
}

/**
 * Completing a plan: the history gets who, when and the notes; a plan with an interval is
 * scheduled again from today (regular, replace) or from the device's run hours now (duration);
 * a one-off replacement is done and goes.
 */
export async function completePlan(
  database: Database,
  plan: PlanWithFarm,
  done: { by: string; at: Date; notes: string; timeZone: string },
): Promise<{ next: string | null; removed: boolean }> {
  return database.transaction(async ({ query }) => {
    await query(
      `insert into maintenance_history (plan_id, house_id, device_name, type, content, done_at, done_by, notes)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        plan.id,
        plan.houseId,
        plan.deviceName,
        plan.type,
        plan.content,
        done.at.toISOString(),
        done.by,
        done.notes,
      ],
    );
    if (plan.type === 'duration') {
      if (plan.deviceId === null) throw new Refusal('invalid', 'devices.deviceRequired');
      const base = await runSecondsOf(query, plan.deviceId);
      await query('update maintenance_plans set base_run_seconds = $1 where id = $2', [
        base,
        plan.id,
      ]);
      return { next: null, removed: false };
    }
    if (plan.interval === null) {
      await query('delete from maintenance_plans where id = $1', [plan.id]);
      return { next: null, removed: true };
    }
    const next = addDays(dayIn(done.at, done.timeZone), plan.interval);
    await query('update maintenance_plans set planned_date = $1 where id = $2', [next, plan.id]);
    return { next, removed: false };
  });
}
