import { and, eq, inArray, sql } from 'drizzle-orm';
import { zonedParts } from '../../src/i18n/dates';
import type { PowerAnswer, Tariff } from '../../src/contract/production';
import { canSeeFarm, canSeeHouse, type Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { tariffs } from '../db/productionSchema';
import { farms, houses } from '../db/schema';
import { telemetryHourly } from '../db/telemetrySchema';
import { Refusal } from '../refusal';
import { localDay } from './records';
import { powerDay } from './tariff';

/**
 * A company manager reads and sets its own organisation's tariff only; another organisation
 * answers like one that does not exist. (Who may bill at all is the routes' roles.)
 */
export function mustBillOrg(user: { roleKey: string; orgId: number | null }, orgId: number): void {
  if (user.roleKey !== 'administrator' && orgId !== user.orgId)
    throw new Refusal('notFound', 'production.noOrganisation');
}

/** The organisation's time-of-use tariff, or null when none was set. */
export async function readTariff(database: Database, orgId: number): Promise<Tariff | null> {
  const [row] = await database.db
    .select({ hours: tariffs.hours, prices: tariffs.prices, currency: tariffs.currency })
    .from(tariffs)
    .where(eq(tariffs.orgId, orgId));
  if (!row) return null;
  return { hours: row.hours, prices: row.prices, currency: row.currency } as Tariff;
}

export async function saveTariff(database: Database, orgId: number, tariff: Tariff) {
  await database.db
    .insert(tariffs)
    .values({
      orgId,
      hours: tariff.hours,
      prices: tariff.prices,
      currency: tariff.currency,
      updatedAt: sql`now()`,
    })
    .onConflictDoUpdate({
      target: tariffs.orgId,
      set: {
        hours: sql`excluded.hours`,
        prices: sql`excluded.prices`,
        currency: sql`excluded.currency`,
        updatedAt: sql`now()`,
      },
    });
}

/**
 * The houses a power question is about (one house, or a farm's houses inside the scope) and the
 * tariff that bills them. Outside the scope answers like not existing.
 */
export async function powerPlace(
  database: Database,
  scope: Scope,
  q: { houseId?: number; farmId?: number },
): Promise<{ houseIds: number[]; tariff: Tariff | null }> {
  let houseIds: number[];
  if (q.houseId !== undefined) {
    if (!canSeeHouse(scope, q.houseId)) throw new Refusal('notFound', 'houses.notFound');
    houseIds = [q.houseId];
  } else {
    if (!canSeeFarm(scope, q.farmId!)) throw new Refusal('notFound', 'houses.notFound');
    const rows = await database.db
      .select({ id: houses.id })
      .from(houses)
      .where(eq(houses.farmId, q.farmId!));
    houseIds = rows.map((r) => r.id).filter((id) => canSeeHouse(scope, id));
  }
  // The farm's organisation bills it; a user's own organisation when it has none of its own.
  const [org] = await database.db
    .select({ orgId: farms.orgId })
    .from(houses)
    .innerJoin(farms, eq(farms.id, houses.farmId))
    .where(inArray(houses.id, houseIds))
    .limit(1);
  const tariff = org ? await readTariff(database, org.orgId) : null;
  return { houseIds, tariff };
}

/** The hour of `now` on the installation's clock (0–23). */
export function localHour(now: Date, timeZone: string): number {
  return zonedParts(now, timeZone).hour;
}

/** Bills nothing when no tariff is set, so the kWh figures still come out of one calculation. */
export const UNBILLED: Tariff = {
  hours: Array.from({ length: 24 }, () => 'flat'),
  prices: { peak: 0, flat: 0, valley: 0 },
  currency: 'CNY',
};

/**
 * Electricity of some houses (one house, or a farm's) for one day of the installation's
 * calendar, hour by hour from the metered power's hourly rollup, with the tariff's cost. On
 * today the hour under way is named, so nobody reads its kWh so far as a fall.
 */
export async function readPowerDay(
  database: Database,
  houseIds: readonly number[],
  day: string,
  timeZone: string,
  tariff: Tariff | null,
  now: Date,
): Promise<PowerAnswer> {
  const h = telemetryHourly;
  const rows = await database.db
    .select({
      hour: sql<number>`extract(hour from ${h.bucket} at time zone ${timeZone})::int`.mapWith(
        Number,
      ),
      kwh: sql<number | null>`sum(${h.power_sum})`.mapWith(Number),
    })
    .from(h)
    .where(
      and(
        inArray(h.houseId!, [...houseIds]),
        sql`${h.bucket} >= (${day}::date::timestamp at time zone ${timeZone})`,
        sql`${h.bucket} < ((${day}::date + 1)::timestamp at time zone ${timeZone})`,
        sql`${h.power_n} > 0`,
      ),
    )
    .groupBy(sql`1`);
  const hourly: Array<number | null> = Array.from({ length: 24 }, () => null);
  for (const r of rows) if (r.kwh !== null) hourly[r.hour] = r.kwh;
  const runningHour = day === localDay(now, timeZone) ? localHour(now, timeZone) : null;
  const result = powerDay(hourly, tariff ?? UNBILLED, runningHour);
  return {
    day,
    hourly,
    runningHour,
    kwh: result.kwh,
    peakKw: result.peakKw,
    averageKw: result.averageKw,
    cost: tariff ? result.cost : null,
    byPeriod: tariff && result.kwh !== null ? result.byPeriod : null,
    tariff,
  };
}
