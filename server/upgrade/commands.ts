import { randomBytes } from 'node:crypto';
import type { Command } from '../../src/contract/envcontrol';
import {
  UPGRADE_TOKEN_SECONDS,
  type UpgradeOrder,
  type UpgradeProgress,
} from '../../src/contract/gateway';
import { hashToken } from '../auth/tokens';
import type { Database, Query } from '../db/client';
import { ApiError } from '../http/errors';
import type { ServerEvents } from '../events';
import { enqueueCommands, type CommandBatch, type CommandTarget } from '../envcontrol/queue';

export interface UpgradeTarget extends CommandTarget {
  /** The version the gateway runs now. */
  version: string;
}

export interface UpgradeRequest extends CommandBatch<UpgradeTarget> {
  file: { sha256: string; version: string; fileName: string };
}

/**
 * One upgrade command per gateway, superseding its unfinished one (a gateway installs one file
 * at a time), with the file it is to install beside it. Each command writes one operation-log row.
 */
export function queueUpgrade(
  database: Database,
  events: ServerEvents,
  request: UpgradeRequest,
): Promise<Command[]> {
  const { file } = request;
  return enqueueCommands<UpgradeTarget>(
    database,
    events,
    {
      kind: 'upgrade',
      params: () => ({}),
      // Only while the file is still there, holding it until the commit: a delete running at
      // the same moment either waits and then sees this upgrade (409), or went first and this
      // send finds no file (404), never a queued upgrade whose download would find none.
      store: async (query, id, target) => {
        const stored = await query(
          `insert into gateway_upgrades (command_id, sha256, version, from_version, file_name)
           select $1, sha256, $3, $4, $5 from upgrade_files where sha256 = $2 for share
           returning 1`,
          [id, file.sha256, file.version, target.version, file.fileName],
        );
        if (stored.length === 0) throw new ApiError(404, 'upgrade.fileNotFound');
      },
      log: (_target, id) => ({
        function: 'upgrade.send',
        operation: { key: 'upgradeCommand', params: { command: id, version: file.version } },
      }),
    },
    request,
  );
}

/**
 * The message that sends an upgrade command, with a download link made for this sending: a
 * fresh random token, stored only as its hash, bound to this gateway and command, good once
 * and for UPGRADE_TOKEN_SECONDS; the link before it stays good, older unspent ones go. Null
 * when the command has no upgrade row.
 */
export async function upgradeOrder(
  query: Query,
  command: { id: string; gatewayId: number; networkId: string },
  downloadBase: string,
): Promise<UpgradeOrder | null> {
  const [row] = await query<{ sha256: string; version: string; size: number | null }>(
    `select u.sha256, u.version, f.size from gateway_upgrades u
     left join upgrade_files f on f.sha256 = u.sha256 where u.command_id = $1`,
    [command.id],
  );
  if (!row) return null;
  // Each resend (every 15 s while unanswered) makes a link; the ones before it are dropped
  // but the newest, which a gateway may be fetching just now. A command so holds at most two
  // unspent links (and one spent per download), however long it goes unanswered.
  await query(
    `delete from upgrade_tokens where command_id = $1 and used_at is null and token_hash not in (
       select token_hash from upgrade_tokens
       where command_id = $1 and used_at is null and expires_at > now()
       order by expires_at desc limit 1)`,
    [command.id],
  );
  const token = randomBytes(24).toString('base64url');
  await query(
    `insert into upgrade_tokens (token_hash, command_id, gateway_id, expires_at)
     values ($1, $2, $3, now() + make_interval(secs => $4))`,
    [hashToken(token), command.id, command.gatewayId, UPGRADE_TOKEN_SECONDS],
  );
  return {
    id: command.id,
    version: row.version,
    url: `${downloadBase}/api/upgrade/download/${encodeURIComponent(command.networkId)}/${token}`,
    sha256: row.sha256,
    size: Number(row.size ?? 0),
  };
}

export type DownloadRefusal = 'unknown' | 'used' | 'expired' | 'finished';

/**
 * Spends a download token of this gateway: answers the file's SHA-256, or why not. The token
 * is marked used in the same statement that finds it, so two requests cannot both spend it;
 * another gateway's token matches nothing (it is looked up with the caller's gateway).
 */
export async function claimDownload(
  query: Query,
  gatewayId: number,
  token: string,
): Promise<
  { ok: true; sha256: string; commandId: string } | { ok: false; reason: DownloadRefusal }
> {
  const hash = hashToken(token);
  const [spent] = await query<{ command_id: string; sha256: string; state: string }>(
    `update upgrade_tokens t set used_at = now()
     from gateway_upgrades u join gateway_commands c on c.id = u.command_id
     where t.token_hash = $1 and t.gateway_id = $2 and t.used_at is null and t.expires_at > now()
       and u.command_id = t.command_id and c.state in ('queued', 'sent')
     returning t.command_id, u.sha256, c.state`,
    [hash, gatewayId],
  );
  if (spent) return { ok: true, sha256: spent.sha256, commandId: spent.command_id };
  const [row] = await query<{ used: boolean; expired: boolean; open: boolean }>(
    `select t.used_at is not null as used, t.expires_at <= now() as expired,
       c.state in ('queued', 'sent') as open
     from upgrade_tokens t join gateway_commands c on c.id = t.command_id
     where t.token_hash = $1 and t.gateway_id = $2`,
    [hash, gatewayId],
  );
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.used) return { ok: false, reason: 'used' };
  if (row.expired) return { ok: false, reason: 'expired' };
  return { ok: false, reason: 'finished' };
}

/**
 * A gateway's progress report on one of its own upgrade commands. Stages move the command to
 * `sent` and restart its resend clock (the gateway is working on it); `done` on the version
 * asked applies it and records the gateway's new version; `done` on another version, or
 * `failed`, rejects it with the reason. Answers the ids whose state or progress changed; a
 * report on a finished command, or on another gateway's, changes nothing.
 */
export async function recordProgress(
  database: Database,
  gatewayId: number,
  progress: UpgradeProgress,
): Promise<string[]> {
  return database.transaction(async ({ query }) => {
    const [row] = await query<{ version: string; state: string }>(
      `select u.version, c.state from gateway_upgrades u join gateway_commands c on c.id = u.command_id
       where c.id = $1 and c.gateway_id = $2 and c.kind = 'upgrade' and c.state in ('queued', 'sent')
       for update of c`,
      [progress.id, gatewayId],
    );
    if (!row) return [];
    const percent = progress.percent === undefined ? null : Math.round(progress.percent);
    if (progress.status === 'done' || progress.status === 'failed') {
      const applied = progress.status === 'done' && progress.version === row.version;
      const reason = applied
        ? null
        : progress.status === 'done'
          ? `came back on version ${progress.version ?? '?'}`
          : (progress.reason ?? 'failed');
      await query(
        `update gateway_commands set state = $2, reason = $3, finished_at = now() where id = $1`,
        [progress.id, applied ? 'applied' : 'rejected', reason],
      );
      await query(`update gateway_upgrades set stage = $2, percent = $3 where command_id = $1`, [
        progress.id,
        progress.status,
        applied ? 100 : percent,
      ]);
      if (applied)
        await query('update gateways set version = $2 where id = $1', [gatewayId, row.version]);
      return [progress.id];
    }
    await query(`update gateway_commands set state = 'sent', sent_at = now() where id = $1`, [
      progress.id,
    ]);
    await query(`update gateway_upgrades set stage = $2, percent = $3 where command_id = $1`, [
      progress.id,
      progress.status,
      percent,
    ]);
    return [progress.id];
  });
}
