import { and, count, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database, Db } from '../db/client';
import { gatewayCommands, paramChanges } from '../db/envcontrolSchema';
import { upgradeTokens } from '../db/upgradeSchema';
import { FINAL_STATES } from '../../src/contract/envcontrol';

/** How long the records of remote operation are kept (ROOST_*_RETENTION_DAYS). */
export interface CommandRetention {
  /** Finished commands (applied, rejected, expired, superseded), with their upgrade and log rows. */
  commandDays: number;
  /** Parameter changes: the audit trail a manager reads back a season or a year later. */
  paramChangeDays: number;
}

/**
 * A spent or expired download link is kept a day, so a gateway that retries it hears "used" or
 * "expired" rather than "unknown"; after that it answers nothing anyone needs.
 */
const SPENT_TOKEN_HOURS = 24;

export interface CommandRetentionResult {
  commands: number;
  paramChanges: number;
  tokens: number;
}

/**
 * Deletes what remote operation has finished with: finished commands older than their limit
 * (a command's upgrade row, download links and device log go with it, by cascade), parameter
 * changes older than theirs, and download links spent or expired a day ago. A queued or sent
 * command is never touched, however old: it is still someone's business.
 */
export async function deleteOldCommands(
  database: Database,
  retention: CommandRetention,
): Promise<CommandRetentionResult> {
  const { db } = database;
  const tokens = await deleteCounted(
    db,
    upgradeTokens,
    lt(
      sql`coalesce(${upgradeTokens.usedAt}, ${upgradeTokens.expiresAt})`,
      sql`now() - make_interval(hours => ${SPENT_TOKEN_HOURS})`,
    ),
  );
  const commands = await deleteCounted(
    db,
    gatewayCommands,
    and(
      inArray(gatewayCommands.state, [...FINAL_STATES]),
      lt(
        sql`coalesce(${gatewayCommands.finishedAt}, ${gatewayCommands.createdAt})`,
        sql`now() - make_interval(days => ${retention.commandDays})`,
      ),
    ),
  );
  const changes = await deleteCounted(
    db,
    paramChanges,
    lt(paramChanges.at, sql`now() - make_interval(days => ${retention.paramChangeDays})`),
  );
  return { commands, paramChanges: changes, tokens };
}

/**
 * Deletes the rows `where` selects and answers how many went, counted in the database: a
 * year's changes going at once are a number, not a row each sent back.
 */
async function deleteCounted(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  const gone = db.$with('gone').as(
    db
      .delete(table)
      .where(where)
      .returning({ one: sql<number>`1`.as('one') }),
  );
  const [row] = await db.with(gone).select({ n: count() }).from(gone);
  return row?.n ?? 0;
}
