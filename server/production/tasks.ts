import type { z } from 'zod';
import type { FlockSummary, taskDecisionSchema } from '../../src/contract/production';
import type { Database } from '../db/client';
import { Refusal } from '../refusal';

/** Marks one of the flock's tasks done or skipped (with a note); a second decision replaces the first. */
export async function decideTask(
  database: Database,
  flock: FlockSummary,
  input: z.output<typeof taskDecisionSchema>,
  userId: number,
): Promise<void> {
  const [known] = await database.query<{ n: number }>(
    `select 1 as n from flocks f join immune_reminders ir on ir.breed_id = f.breed_id
     where f.id = $1 and ir.age_day = $2 and ir.content = $3`,
    [flock.id, input.ageDay, input.content],
  );
  if (!known) throw new Refusal('notFound', 'production.taskUnknown');
  await database.query(
    `insert into flock_tasks (flock_id, age_day, content, state, note, decided_by, decided_at)
     values ($1, $2, $3, $4, $5, $6, now())
     on conflict (flock_id, age_day, content) do update set state = excluded.state,
       note = excluded.note, decided_by = excluded.decided_by, decided_at = now()`,
    [flock.id, input.ageDay, input.content, input.state, input.note, userId],
  );
}
