import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { farms } from '../db/schema';

/**
 * Walks of the farm tree (organisation → company nodes → farms). Drizzle 0.45 has no recursive
 * common table expression in its builder, and walking the tree one level per round trip would
 * cost as many queries as the tree is deep: one recursive statement answers in one.
 */

/** node-postgres and PGlite both answer `{ rows }` through drizzle's execute. */
function idsOf(result: unknown): number[] {
  return (result as { rows: { id: number | string }[] }).rows.map((r) => Number(r.id));
}

/** A node and every node below it, any level. Hand-written: a recursive walk (see above). */
export async function subtreeIds(db: Db, nodeId: number): Promise<number[]> {
  const result = await db.execute(sql`
    with recursive tree as (
      select id from ${farms} where id = ${nodeId}
      union all
      select f.id from ${farms} f join tree t on f.parent_id = t.id
    )
    select id from tree`);
  return idsOf(result);
}

/**
 * The node itself and every node below it, farms only (level 'farm'). Hand-written: a recursive
 * walk (see above).
 */
export async function farmsUnder(db: Db, nodeId: number): Promise<number[]> {
  const result = await db.execute(sql`
    with recursive tree as (
      select id, level from ${farms} where id = ${nodeId}
      union all
      select f.id, f.level from ${farms} f join tree t on f.parent_id = t.id
    )
    select id from tree where level = 'farm'`);
  return idsOf(result);
}
