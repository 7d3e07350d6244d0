import type { Database } from '../db/client';
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
  const tokens = await database.query<{ n: number }>(
    `with gone as (
       delete from upgrade_tokens
       where coalesce(used_at, expires_at) < now() - make_interval(hours => $1)
       returning 1)
     select count(*)::int as n from gone`,
    [SPENT_TOKEN_HOURS],
  );
  const commands = await database.query<{ n: number }>(
    `with gone as (
       delete from gateway_commands
       where state = any($1::text[])
         and coalesce(finished_at, created_at) < now() - make_interval(days => $2)
       returning 1)
     select count(*)::int as n from gone`,
    [FINAL_STATES, retention.commandDays],
  );
  const paramChanges = await database.query<{ n: number }>(
    `with gone as (
       delete from param_changes where at < now() - make_interval(days => $1) returning 1)
     select count(*)::int as n from gone`,
    [retention.paramChangeDays],
  );
  return {
    commands: commands[0]?.n ?? 0,
    paramChanges: paramChanges[0]?.n ?? 0,
    tokens: tokens[0]?.n ?? 0,
  };
}
