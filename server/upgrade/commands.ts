import { randomBytes } from 'node:crypto';
import type { Command } from '../../src/contract/envcontrol';
import {
  UPGRADE_TOKEN_SECONDS,
  type UpgradeOrder,
  type UpgradeProgress,
} from '../../src/contract/gateway';
import { and, desc, eq, gt, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { hashToken } from '../auth/tokens';
import type { Database, Db } from '../db/client';
import { gatewayCommands } from '../db/envcontrolSchema';
import { gatewayUpgrades, upgradeFiles, upgradeTokens } from '../db/upgradeSchema';
import { ApiError } from '../http/errors';
import type { ServerEvents } from '../events';
import type { HouseLiveState } from '../houses/state';
import { recordGatewayVersion } from '../ingest/status';
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
      store: async (db, id, target) => {
        const [stored] = await db
          .select({ sha256: upgradeFiles.sha256 })
          .from(upgradeFiles)
          .where(eq(upgradeFiles.sha256, file.sha256))
          .for('share');
        if (!stored) throw new ApiError(404, 'upgrade.fileNotFound');
        await db.insert(gatewayUpgrades).values({
          commandId: id,
          sha256: stored.sha256,
          version: file.version,
          fromVersion: target.version,
          fileName: file.fileName,
        });
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
  db: Db,
  command: { id: string; gatewayId: number; networkId: string },
  downloadBase: string,
): Promise<UpgradeOrder | null> {
  const [row] = await db
    .select({
      sha256: gatewayUpgrades.sha256,
      version: gatewayUpgrades.version,
      size: upgradeFiles.size,
    })
    .from(gatewayUpgrades)
    .leftJoin(upgradeFiles, eq(upgradeFiles.sha256, gatewayUpgrades.sha256))
    .where(eq(gatewayUpgrades.commandId, command.id));
  if (!row) return null;
  // Each resend (every 15 s while unanswered) makes a link; the ones before it are dropped
  // but the newest, which a gateway may be fetching just now. A command so holds at most two
  // unspent links (and one spent per download), however long it goes unanswered.
  const t = upgradeTokens;
  const unspent = and(eq(t.commandId, command.id), isNull(t.usedAt));
  const newest = db
    .select({ tokenHash: t.tokenHash })
    .from(t)
    .where(and(unspent, gt(t.expiresAt, sql`now()`)))
    .orderBy(desc(t.expiresAt))
    .limit(1);
  await db.delete(t).where(and(unspent, notInArray(t.tokenHash, newest)));
  const token = randomBytes(24).toString('base64url');
  await db.insert(t).values({
    tokenHash: hashToken(token),
    commandId: command.id,
    gatewayId: command.gatewayId,
    expiresAt: sql`now() + make_interval(secs => ${UPGRADE_TOKEN_SECONDS})`,
  });
  return {
    id: command.id,
    version: row.version,
    url: `${downloadBase}/api/upgrade/download/${encodeURIComponent(command.networkId)}/${token}`,
    sha256: row.sha256,
    size: row.size ?? 0,
  };
}

export type DownloadRefusal = 'unknown' | 'used' | 'expired' | 'finished';

/**
 * Spends a download token of this gateway: answers the file's SHA-256, or why not. The token
 * is marked used in the same statement that finds it, so two requests cannot both spend it;
 * another gateway's token matches nothing (it is looked up with the caller's gateway).
 */
export async function claimDownload(
  db: Db,
  gatewayId: number,
  token: string,
): Promise<
  { ok: true; sha256: string; commandId: string } | { ok: false; reason: DownloadRefusal }
> {
  const hash = hashToken(token);
  const t = upgradeTokens;
  const c = gatewayCommands;
  const open = inArray(c.state, ['queued', 'sent']);
  const [spent] = await db
    .update(t)
    .set({ usedAt: sql`now()` })
    .from(gatewayUpgrades)
    .innerJoin(c, eq(c.id, gatewayUpgrades.commandId))
    .where(
      and(
        eq(t.tokenHash, hash),
        eq(t.gatewayId, gatewayId),
        isNull(t.usedAt),
        gt(t.expiresAt, sql`now()`),
        eq(gatewayUpgrades.commandId, t.commandId),
        open,
      ),
    )
    .returning({ commandId: t.commandId, sha256: gatewayUpgrades.sha256 });
  if (spent) return { ok: true, sha256: spent.sha256, commandId: spent.commandId };
  const [row] = await db
    .select({
      used: sql<boolean>`${t.usedAt} is not null`,
      expired: sql<boolean>`${t.expiresAt} <= now()`,
      open: sql<boolean>`${open}`,
    })
    .from(t)
    .innerJoin(c, eq(c.id, t.commandId))
    .where(and(eq(t.tokenHash, hash), eq(t.gatewayId, gatewayId)));
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.used) return { ok: false, reason: 'used' };
  if (row.expired) return { ok: false, reason: 'expired' };
  return { ok: false, reason: 'finished' };
}

/**
 * A gateway's progress report on one of its own upgrade commands. Stages move the command to
 * `sent` and restart its resend clock (the gateway is working on it); `done` on the version
 * asked applies it; `done` on another version, or `failed`, rejects it with the reason. `done`
 * records the version the gateway came back on, whichever it is: it is what the gateway runs.
 * Answers the ids whose state or progress changed, and the house states a new version changed;
 * a report on a finished command, or on another gateway's, changes nothing.
 */
export async function recordProgress(
  database: Database,
  gatewayId: number,
  progress: UpgradeProgress,
): Promise<{ ids: string[]; states: HouseLiveState[] }> {
  const nothing = { ids: [], states: [] };
  return database.transaction(async ({ db }) => {
    const c = gatewayCommands;
    const [row] = await db
      .select({ version: gatewayUpgrades.version, state: c.state })
      .from(gatewayUpgrades)
      .innerJoin(c, eq(c.id, gatewayUpgrades.commandId))
      .where(
        and(
          eq(c.id, progress.id),
          eq(c.gatewayId, gatewayId),
          eq(c.kind, 'upgrade'),
          inArray(c.state, ['queued', 'sent']),
        ),
      )
      .for('update', { of: c });
    if (!row) return nothing;
    const percent = progress.percent === undefined ? null : Math.round(progress.percent);
    const stage = (percentNow: number | null) =>
      db
        .update(gatewayUpgrades)
        .set({ stage: progress.status, percent: percentNow })
        .where(eq(gatewayUpgrades.commandId, progress.id));
    if (progress.status === 'done' || progress.status === 'failed') {
      const applied = progress.status === 'done' && progress.version === row.version;
      const reason = applied
        ? null
        : progress.status === 'done'
          ? `came back on version ${progress.version ?? '?'}`
          : (progress.reason ?? 'failed');
      await db
        .update(c)
        .set({ state: applied ? 'applied' : 'rejected', reason, finishedAt: sql`now()` })
        .where(eq(c.id, progress.id));
      await stage(applied ? 100 : percent);
      const states =
        progress.status === 'done' && progress.version
          ? await recordGatewayVersion(db, gatewayId, progress.version)
          : [];
      return { ids: [progress.id], states };
    }
    await db
      .update(c)
      .set({ state: 'sent', sentAt: sql`now()` })
      .where(eq(c.id, progress.id));
    await stage(percent);
    return { ids: [progress.id], states: [] };
  });
}
