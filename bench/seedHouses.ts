import type { Database } from '../server/db/client';

/**
 * Tops the database's houses up to `houses` with set-based SQL (a few statements, seconds even
 * on PGlite): farms of `perFarm` houses named `<farmPrefix> 0001…`, spread over `provinces`
 * (adcodes), and an open broiler flock in every house that has none. The overview and the
 * scale benches both start from it.
 */
export async function topUpHouses(
  database: Pick<Database, 'query'>,
  options: { houses: number; perFarm: number; farmPrefix: string; provinces: readonly string[] },
): Promise<void> {
  const [{ n } = { n: 0 }] = await database.query<{ n: number }>(
    'select count(*)::int as n from houses',
  );
  const extra = Math.max(0, options.houses - Number(n));
  await database.query(
    `insert into farms (org_id, parent_id, level, name, province_adcode, province_name, longitude, latitude)
     select (select id from organizations order by id limit 1), null, 'farm',
       $3 || ' ' || lpad(g::text, 4, '0'), ($2::text[])[1 + g % cardinality($2::text[])], 'Bench',
       110 + (g % 97) * 0.1, 30 + (g % 89) * 0.1
     from generate_series(1, $1::int) g`,
    [Math.ceil(extra / options.perFarm), options.provinces, options.farmPrefix],
  );
  await database.query(
    `insert into houses (farm_id, name, sort)
     select f.id, 'House ' || s, s
     from (select id, row_number() over (order by id) as r from farms where name like $3 || ' %') f,
          generate_series(1, $2::int) s
     where (f.r - 1) * $2 + s <= $1`,
    [extra, options.perFarm, options.farmPrefix],
  );
  await database.query(
    `insert into flocks (house_id, breed_id, placed_on, age_at_placement, head_count)
     select h.id, (select id from breeds where code = 'BROILER-STD'), current_date - (h.id % 42), 1, 20000
     from houses h where not exists (select 1 from flocks f where f.house_id = h.id and f.closed_on is null)`,
  );
}
