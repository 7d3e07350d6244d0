import type { z } from 'zod';
import { zonedParts } from '../../src/i18n/dates';
import type {
  FarmDay,
  FlockSummary,
  HouseMonth,
  dayRecordInputSchema,
} from '../../src/contract/production';
import {
  and,
  desc,
  eq,
  gte,
  inArray,
  isNull,
  lte,
  or,
  sql,
  type AnyColumn,
  type SQL,
} from 'drizzle-orm';
import type { Scope } from '../auth/scope';
import type { Database, Db } from '../db/client';
import { dailyRecords } from '../db/productionSchema';
import { breeds, breedTargets, farms, flocks, houses } from '../db/schema';
import { Refusal } from '../refusal';
import { addDays, ageOn } from './kpi';

type DayInput = z.output<typeof dayRecordInputSchema>;

/** The installation's calendar day of `now` (the day a farmer enters data for). */
export function localDay(now: Date, timeZone: string): string {
  const p = zonedParts(now, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** A flock is a layer flock when its breed's standard has a laying rate. */
const layerOf = (breedId: AnyColumn) =>
  sql<boolean>`exists (select 1 from ${breedTargets} where ${breedTargets.breedId} = ${breedId} and ${breedTargets.layingRate} > 0)`;

/** A record as the wire carries it. */
const RECORD_FIELDS = {
  flockId: dailyRecords.flockId,
  day: dailyRecords.day,
  deathsAm: dailyRecords.deathsAm,
  deathsPm: dailyRecords.deathsPm,
  cullsAm: dailyRecords.cullsAm,
  cullsPm: dailyRecords.cullsPm,
  feedKg: dailyRecords.feedKg,
  waterL: dailyRecords.waterL,
  eggs: dailyRecords.eggs,
  eggKg: dailyRecords.eggKg,
  bodyWeightG: dailyRecords.bodyWeightG,
  uniformity: dailyRecords.uniformity,
  note: dailyRecords.note,
};

/** Limits `column` to the scope's houses; undefined (no condition) for a scope over all. */
export function houseInScope(scope: Scope, column: AnyColumn): SQL | undefined {
  return scope.all ? undefined : inArray(column, [...scope.houseIds]);
}

/** The farm's houses in the scope on one day, each with the flock placed there and its record. */
export async function readFarmDay(
  database: Database,
  scope: Scope,
  farmId: number,
  day: string,
): Promise<FarmDay> {
  const open = database.db
    .select({
      id: flocks.id,
      placedOn: flocks.placedOn,
      ageAtPlacement: flocks.ageAtPlacement,
      breedId: flocks.breedId,
    })
    .from(flocks)
    .where(and(eq(flocks.houseId, houses.id), placedBy(day), notClosedBefore(day)))
    .orderBy(desc(flocks.placedOn))
    .limit(1)
    .as('f');
  const rows = await database.db
    .select({
      houseId: houses.id,
      houseName: houses.name,
      flockId: open.id,
      placedOn: open.placedOn,
      ageAtPlacement: open.ageAtPlacement,
      layer: sql<boolean>`coalesce(${layerOf(open.breedId)}, false)`,
      record: RECORD_FIELDS,
    })
    .from(houses)
    .leftJoinLateral(open, sql`true`)
    .leftJoin(dailyRecords, and(eq(dailyRecords.flockId, open.id), eq(dailyRecords.day, day)))
    .where(and(eq(houses.farmId, farmId), houseInScope(scope, houses.id)))
    .orderBy(houses.sort, houses.name, houses.id);
  return {
    day,
    rows: rows.map((row) => ({
      houseId: row.houseId,
      houseName: row.houseName,
      flockId: row.flockId,
      ageDay:
        row.flockId === null
          ? null
          : ageOn({ placedOn: row.placedOn!, ageAtPlacement: row.ageAtPlacement! }, day),
      layer: row.layer,
      record: row.record,
    })),
  };
}

/** The flock was placed on or before `day`. */
const placedBy = (day: string) => lte(flocks.placedOn, day);
/** The flock was still open on `day` (closed that day or later, or not closed). */
const notClosedBefore = (day: string) => or(isNull(flocks.closedOn), gte(flocks.closedOn, day));

/** One house's month: every day, its flock's age, its record, and whether it is missing. */
export async function readHouseMonth(
  database: Database,
  houseId: number,
  month: string,
  today: string,
): Promise<HouseMonth> {
  const first = `${month}-01`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const length = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const last = addDays(first, length - 1);
  const [placed, records] = await Promise.all([
    database.db
      .select({
        id: flocks.id,
        placedOn: flocks.placedOn,
        closedOn: flocks.closedOn,
        ageAtPlacement: flocks.ageAtPlacement,
      })
      .from(flocks)
      .where(and(eq(flocks.houseId, houseId), placedBy(last), notClosedBefore(first))),
    database.db
      .select(RECORD_FIELDS)
      .from(dailyRecords)
      .innerJoin(flocks, eq(flocks.id, dailyRecords.flockId))
      .where(
        and(eq(flocks.houseId, houseId), gte(dailyRecords.day, first), lte(dailyRecords.day, last)),
      ),
  ]);
  const byDay = new Map(records.map((r) => [r.day, r]));
  const days = Array.from({ length }, (_, i) => {
    const day = addDays(first, i);
    const flock = placed.find(
      (f) => f.placedOn <= day && (f.closedOn === null || f.closedOn >= day),
    );
    const record = byDay.get(day) ?? null;
    return {
      day,
      flockId: flock ? flock.id : null,
      ageDay: flock ? ageOn(flock, day) : null,
      record,
      missing: Boolean(flock) && record === null && day <= today,
    };
  });
  return { houseId, month, days };
}

/**
 * Saves a day for several houses in one transaction: each row goes to the flock placed in its
 * house that day. A house outside the scope answers like one that does not exist.
 */
export async function saveDays(
  database: Database,
  scope: Scope,
  userId: number,
  inputs: readonly DayInput[],
  today: string,
): Promise<Array<{ houseId: number; houseName: string; flockId: number; day: string }>> {
  return database.transaction(async ({ db }) => {
    const saved = [];
    for (const input of inputs) {
      if (!scope.all && !scope.houseIds.has(input.houseId))
        throw new Refusal('notFound', 'houses.notFound');
      if (input.day > today) throw new Refusal('invalid', 'production.future');
      const flock = await flockInHouseOn(db, input.houseId, input.day);
      const values = {
        deathsAm: input.deathsAm,
        deathsPm: input.deathsPm,
        cullsAm: input.cullsAm,
        cullsPm: input.cullsPm,
        feedKg: input.feedKg,
        waterL: input.waterL,
        eggs: input.eggs,
        eggKg: input.eggKg,
        bodyWeightG: input.bodyWeightG,
        uniformity: input.uniformity,
        note: input.note,
        updatedBy: userId,
        updatedAt: sql`now()`,
      };
      await db
        .insert(dailyRecords)
        .values({ flockId: flock.id, day: input.day, ...values })
        .onConflictDoUpdate({ target: [dailyRecords.flockId, dailyRecords.day], set: values });
      saved.push({
        houseId: input.houseId,
        houseName: flock.houseName,
        flockId: flock.id,
        day: input.day,
      });
    }
    return saved;
  });
}

async function flockInHouseOn(db: Db, houseId: number, day: string) {
  const [house] = await db.select({ name: houses.name }).from(houses).where(eq(houses.id, houseId));
  if (!house) throw new Refusal('notFound', 'houses.notFound');
  const [flock] = await db
    .select({ id: flocks.id })
    .from(flocks)
    .where(and(eq(flocks.houseId, houseId), placedBy(day), notClosedBefore(day)))
    .orderBy(desc(flocks.placedOn))
    .limit(1);
  if (!flock) throw new Refusal('unprocessable', 'production.noFlock', { house: house.name, day });
  return { id: flock.id, houseName: house.name };
}

/** Flocks in the scope, newest first: one house's history, or a list by id. */
export async function readFlocks(
  database: Database,
  scope: Scope,
  filter: { houseId?: number; flockIds?: number[]; farmId?: number },
): Promise<FlockSummary[]> {
  const rows = await database.db
    .select({
      id: flocks.id,
      houseId: flocks.houseId,
      houseName: houses.name,
      farmName: farms.name,
      breedName: breeds.name,
      placedOn: flocks.placedOn,
      closedOn: flocks.closedOn,
      ageAtPlacement: flocks.ageAtPlacement,
      headCount: flocks.headCount,
      origin: flocks.origin,
      depletedCount: flocks.depletedCount,
      catchWeightKg: flocks.catchWeightKg,
      layer: layerOf(flocks.breedId),
    })
    .from(flocks)
    .innerJoin(houses, eq(houses.id, flocks.houseId))
    .innerJoin(farms, eq(farms.id, houses.farmId))
    .leftJoin(breeds, eq(breeds.id, flocks.breedId))
    .where(
      and(
        houseInScope(scope, flocks.houseId),
        filter.houseId === undefined ? undefined : eq(flocks.houseId, filter.houseId),
        filter.farmId === undefined ? undefined : eq(houses.farmId, filter.farmId),
        filter.flockIds ? inArray(flocks.id, filter.flockIds) : undefined,
      ),
    )
    .orderBy(desc(flocks.placedOn), desc(flocks.id));
  return rows;
}
