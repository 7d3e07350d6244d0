import type { PowerAnswer, Tariff } from '../../src/contract/production';
import { canSeeFarm, canSeeHouse, type Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { Refusal } from '../refusal';
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
  const [row] = await database.query<{ hours: unknown; prices: unknown }>(
    'select hours, prices from tariffs where org_id = $1',
    [orgId],
  );
  if (!row) return null;
  const json = <T>(v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
  return { hours: json(row.hours), prices: json(row.prices) };
}

export async function saveTariff(database: Database, orgId: number, tariff: Tariff) {
  await database.query(
    `insert into tariffs (org_id, hours, prices, updated_at) values ($1, $2::jsonb, $3::jsonb, now())
     on conflict (org_id) do update set hours = excluded.hours, prices = excluded.prices, updated_at = now()`,
    [orgId, JSON.stringify(tariff.hours), JSON.stringify(tariff.prices)],
  );
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
    const rows = await database.query<{ id: number }>('select id from houses where farm_id = $1', [
      q.farmId,
    ]);
    houseIds = rows.map((r) => Number(r.id)).filter((id) => canSeeHouse(scope, id));
  }
  // The farm's organisation bills it; a user's own organisation when it has none of its own.
  const [org] = await database.query<{ org_id: number }>(
    'select f.org_id from houses h join farms f on f.id = h.farm_id where h.id = any($1::int[]) limit 1',
    [houseIds],
  );
  const tariff = org ? await readTariff(database, Number(org.org_id)) : null;
  return { houseIds, tariff };
}

/**
 * Electricity of some houses (one house, or a farm's) for one day of the installation's
 * calendar, hour by hour from the metered power's hourly rollup, with the tariff's cost.
 */
export async function readPowerDay(
  database: Database,
  houseIds: readonly number[],
  day: string,
  timeZone: string,
  tariff: Tariff | null,
): Promise<PowerAnswer> {
  const rows = await database.query<{ hour: number; kwh: number | null }>(
    `select extract(hour from bucket at time zone $3)::int as hour, sum(power_sum) as kwh
     from telemetry_hourly
     where house_id = any($1::int[]) and bucket >= ($2::date::timestamp at time zone $3)
       and bucket < (($2::date + 1)::timestamp at time zone $3) and power_n > 0
     group by 1`,
    [houseIds, day, timeZone],
  );
  const hourly: Array<number | null> = Array.from({ length: 24 }, () => null);
  for (const r of rows) if (r.kwh !== null) hourly[Number(r.hour)] = Number(r.kwh);
  const flat: Tariff = {
    hours: Array.from({ length: 24 }, () => 'flat'),
    prices: { peak: 0, flat: 0, valley: 0 },
  };
  const result = powerDay(hourly, tariff ?? flat);
  return {
    day,
    hourly,
    kwh: result.kwh,
    peakKw: result.peakKw,
    averageKw: result.averageKw,
    cost: tariff ? result.cost : null,
    byPeriod: tariff ? result.byPeriod : null,
    tariff,
  };
}
