import type { z } from 'zod';
import type { FlockSummary, taskDecisionSchema } from '../../src/contract/production';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { flockTasks } from '../db/productionSchema';
import { flocks, immuneReminders } from '../db/schema';
import { Refusal } from '../refusal';

/** Marks one of the flock's tasks done or skipped (with a note); a second decision replaces the first. */
export async function decideTask(
  database: Database,
  flock: FlockSummary,
  input: z.output<typeof taskDecisionSchema>,
  userId: number,
): Promise<void> {
  const [known] = await database.db
    .select({ n: sql<number>`1` })
    .from(flocks)
    .innerJoin(immuneReminders, eq(immuneReminders.breedId, flocks.breedId))
    .where(
      and(
        eq(flocks.id, flock.id),
        eq(immuneReminders.ageDay, input.ageDay),
        eq(immuneReminders.content, input.content),
      ),
    );
  if (!known) throw new Refusal('notFound', 'production.taskUnknown');
  await database.db
    .insert(flockTasks)
    .values({
      flockId: flock.id,
      ageDay: input.ageDay,
      content: input.content,
      state: input.state,
      note: input.note,
      decidedBy: userId,
      decidedAt: sql`now()`,
    })
    .onConflictDoUpdate({
      target: [flockTasks.flockId, flockTasks.ageDay, flockTasks.content],
      set: {
        state: sql`excluded.state`,
        note: sql`excluded.note`,
        decidedBy: sql`excluded.decided_by`,
        decidedAt: sql`now()`,
      },
    });
}
