import type {
  MaintenancePlan,
  MaintenanceState,
  MaintenanceType,
} from '../../src/contract/devices';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Scope } from '../auth/scope';
import type { Database, Db } from '../db/client';
import {
  deviceRuntime,
  maintenanceHistory,
  maintenancePlans,
  terminalDevices,
} from '../db/devicesSchema';
import { farms, houses } from '../db/schema';
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

export type PlanWithFarm = MaintenancePlan & { farmName: string };

/** Plans in the caller's scope with where each stands on `now`. */
export async function readPlans(
  database: Database,
  scope: Scope,
  now: Date,
  timeZone: string,
  filter: { id?: number; houseId?: number; deviceId?: number } = {},
): Promise<PlanWithFarm[]> {
  const p = maintenancePlans;
  const d = terminalDevices;
  const rows = await database.db
    .select({
      id: p.id,
      houseId: p.houseId,
      houseName: houses.name,
      farmName: farms.name,
      deviceId: p.deviceId,
      deviceName: d.name,
      type: sql<MaintenanceType>`${p.type}`,
      content: p.content,
      description: p.description,
      plannedDate: p.plannedDate,
      interval: p.interval,
      runSeconds: runSecondsSql(d.controlPort),
      baseRunSeconds: p.baseRunSeconds,
    })
    .from(p)
    .innerJoin(houses, eq(houses.id, p.houseId))
    .innerJoin(farms, eq(farms.id, houses.farmId))
    .leftJoin(d, eq(d.id, p.deviceId))
    .leftJoin(deviceRuntime, and(eq(deviceRuntime.houseId, d.houseId), ne(d.controlPort, '')))
    .where(
      and(
        houseScopeWhere(scope, p.houseId),
        filter.id !== undefined ? eq(p.id, filter.id) : undefined,
        filter.houseId !== undefined ? eq(p.houseId, filter.houseId) : undefined,
        filter.deviceId !== undefined ? eq(p.deviceId, filter.deviceId) : undefined,
      ),
    )
    .orderBy(asc(houses.name), asc(p.id));
  const today = dayIn(now, timeZone);
  return rows.map((r) => {
    const runHours =
      r.type === 'duration' ? Math.max(0, ((r.runSeconds ?? 0) - r.baseRunSeconds) / 3600) : null;
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
export async function runSecondsOf(db: Db, deviceId: number): Promise<number> {
  const [row] = await db
    .select({ s: runSecondsSql(terminalDevices.controlPort) })
    .from(terminalDevices)
    .leftJoin(deviceRuntime, eq(deviceRuntime.houseId, terminalDevices.houseId))
    .where(eq(terminalDevices.id, deviceId));
  return row?.s ?? 0;
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
  return database.transaction(async ({ db }) => {
    await db.insert(maintenanceHistory).values({
      planId: plan.id,
      houseId: plan.houseId,
      deviceName: plan.deviceName,
      type: plan.type,
      content: plan.content,
      doneAt: done.at,
      doneBy: done.by,
      notes: done.notes,
    });
    if (plan.type === 'duration') {
      if (plan.deviceId === null) throw new Refusal('invalid', 'devices.deviceRequired');
      const base = await runSecondsOf(db, plan.deviceId);
      await db
        .update(maintenancePlans)
        .set({ baseRunSeconds: base })
        .where(eq(maintenancePlans.id, plan.id));
      return { next: null, removed: false };
    }
    if (plan.interval === null) {
      await db.delete(maintenancePlans).where(eq(maintenancePlans.id, plan.id));
      return { next: null, removed: true };
    }
    const next = addDays(dayIn(done.at, done.timeZone), plan.interval);
    await db
      .update(maintenancePlans)
      .set({ plannedDate: next })
      .where(eq(maintenancePlans.id, plan.id));
    return { next, removed: false };
  });
}
