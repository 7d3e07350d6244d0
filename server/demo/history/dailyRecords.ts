import type { Database } from '../../db/client';
import { arrayLiteral } from '../../db/arrayLiteral';
import { addDays, standardAt, type TargetFacts } from '../../production/kpi';
import { BROILER, LAYER, type BreedStandard } from '../breedStandards';

/** A flock of the demo's past, as stored. */
export interface DemoFlock {
  id: number;
  placedOn: string;
  closedOn: string | null;
  ageAtPlacement: number;
  headCount: number;
  layer: boolean;
}

export interface DemoDay {
  flockId: number;
  day: string;
  deathsAm: number;
  deathsPm: number;
  cullsAm: number;
  cullsPm: number;
  feedKg: number;
  eggs: number | null;
  eggKg: number | null;
  bodyWeightG: number | null;
  uniformity: number | null;
}

const targetsOf = (standard: BreedStandard): TargetFacts[] =>
  standard.rows.map((r) => ({
    ageDay: r.ageDay,
    weight: r.weight,
    feedPerHead: r.feedPerHead,
    waterPerHead: r.waterPerHead,
    layingRate: r.layingRate ?? null,
    survivalRate: r.survivalRate,
  }));
const TARGETS = { broiler: targetsOf(BROILER), layer: targetsOf(LAYER) };

/** A small seeded generator (mulberry32): the same demo past on every start. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * What a farm's people would have entered for each day of a flock, from `fromDay` up to the day
 * before `today` (today's figures come in the evening): losses a little above the standard's in
 * the first week, feed and eggs near the breed standard, the birds weighed twice a week (layers
 * once), every figure with a little day-to-day spread.
 */
export function demoDays(flock: DemoFlock, fromDay: string, today: string): DemoDay[] {
  const targets = flock.layer ? TARGETS.layer : TARGETS.broiler;
  const next = random(flock.id * 7919 + flock.headCount);
  const spread = (width: number) => 1 + (next() * 2 - 1) * width;
  const last =
    flock.closedOn !== null && flock.closedOn < today ? flock.closedOn : addDays(today, -1);
  const out: DemoDay[] = [];
  let alive = flock.headCount;
  for (let day = flock.placedOn, i = 0; day <= last; day = addDays(day, 1), i += 1) {
    const ageDay = flock.ageAtPlacement + i;
    const standard = standardAt(targets, ageDay);
    // Daily loss rate: broilers lose more in their first week; layers a steady trickle.
    const rate = flock.layer ? 0.0002 : ageDay <= 7 ? 0.0015 : 0.0005;
    const deaths = Math.round(alive * rate * spread(0.5));
    const culls = Math.round(alive * rate * 0.2 * spread(0.8));
    const present = alive;
    alive = Math.max(0, alive - deaths - culls);
    if (day < fromDay) continue;
    const deathsAm = Math.round(deaths * 0.6);
    const cullsAm = Math.round(culls / 2);
    const feedKg = Math.round(((present * (standard.feedPerBirdG ?? 0)) / 1000) * spread(0.04));
    const layRate = standard.henDayPct;
    const eggs =
      flock.layer && layRate !== null ? Math.round(present * (layRate / 100) * spread(0.03)) : null;
    const weighed = flock.layer ? ageDay % 7 === 0 : ageDay % 7 === 0 || ageDay % 7 === 3;
    const weight =
      weighed && standard.bodyWeightG !== null ? standard.bodyWeightG * spread(0.03) : null;
    out.push({
      flockId: flock.id,
      day,
      deathsAm,
      deathsPm: deaths - deathsAm,
      cullsAm,
      cullsPm: culls - cullsAm,
      feedKg,
      eggs,
      // An egg of the laying season weighs about 62 g.
      eggKg: eggs === null ? null : Math.round(eggs * 0.062 * spread(0.02) * 10) / 10,
      bodyWeightG: weight === null ? null : Math.round(weight),
      uniformity: weight === null ? null : Math.round(82 + next() * 8),
    });
  }
  return out;
}

const INSERT_DAYS = `
  insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg,
    eggs, egg_kg, body_weight_g, uniformity)
  select * from unnest($1::int[], $2::date[], $3::int[], $4::int[], $5::int[], $6::int[],
    $7::real[], $8::int[], $9::real[], $10::real[], $11::real[])
  on conflict do nothing`;

/**
 * The daily records of every demo flock's days inside the demo's past, in one insert: the
 * flocks page then shows real KPIs, comparisons and electricity per bird from the first start.
 */
export async function writeDemoDailyRecords(
  database: Database,
  houseIds: readonly number[],
  fromDay: string,
  today: string,
): Promise<number> {
  const flocks = await database.query<Record<string, unknown>>(
    `select f.id, f.placed_on::text as "placedOn", f.closed_on::text as "closedOn",
       f.age_at_placement as "ageAtPlacement", f.head_count as "headCount",
       exists (select 1 from breed_targets bt where bt.breed_id = f.breed_id and bt.laying_rate > 0) as layer
     from flocks f where f.house_id = any($1::int[])`,
    [houseIds],
  );
  const days = flocks.flatMap((f) =>
    demoDays(
      {
        id: Number(f.id),
        placedOn: String(f.placedOn),
        closedOn: f.closedOn === null ? null : String(f.closedOn),
        ageAtPlacement: Number(f.ageAtPlacement),
        headCount: Number(f.headCount),
        layer: f.layer === true,
      },
      fromDay,
      today,
    ),
  );
  if (days.length === 0) return 0;
  const column = <K extends keyof DemoDay>(key: K) => arrayLiteral(days.map((d) => d[key]));
  await database.query(INSERT_DAYS, [
    column('flockId'),
    column('day'),
    column('deathsAm'),
    column('deathsPm'),
    column('cullsAm'),
    column('cullsPm'),
    column('feedKg'),
    column('eggs'),
    column('eggKg'),
    column('bodyWeightG'),
    column('uniformity'),
  ]);
  return days.length;
}
