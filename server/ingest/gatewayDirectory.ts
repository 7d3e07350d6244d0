import { timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { terminalDevices } from '../db/devicesSchema';
import { gateways, houses } from '../db/schema';
import { hashToken } from '../auth/tokens';

export interface GatewayInfo {
  gatewayId: number;
  networkId: string;
  houseId: number | null;
  farmId: number | null;
  intervalSeconds: number;
  tokenHash: string;
}

/** A house's extra parameters (terminal devices' own metrics): the range of each code. */
export type ExtraRanges = ReadonlyMap<string, { min: number; max: number }>;

/**
 * Gateway look-ups on the hot path. Entries live 30 s, so a gateway moved to another house or
 * given a new token is picked up within that time by every server process; unknown ids are
 * remembered 5 s so a stream of junk ids cannot flood the database.
 */
const FOUND_TTL_MS = 30_000;
const MISSING_TTL_MS = 5_000;
/** How long a read of extra parameters waits for others to share its statement. */
const EXTRAS_BATCH_MS = 5;

export class GatewayDirectory {
  private readonly cache = new Map<string, { info: GatewayInfo | null; until: number }>();
  /**
   * Counts `forget` calls: a read that was under way when a gateway was forgotten may hold the
   * row from before the change (its old token), so its answer is used once and not kept.
   */
  private forgets = 0;
  private readonly extras = new Map<number, { ranges: ExtraRanges | null; until: number }>();
  /** Reads of a house's extra parameters under way; `forgetHouse` drops one so its answer is not kept. */
  private readonly loadingExtras = new Map<number, Promise<ExtraRanges | null>>();
  private readonly extrasBatch: Array<{
    houseId: number;
    resolve(ranges: ExtraRanges | null): void;
    reject(error: unknown): void;
  }> = [];

  constructor(private readonly db: Db) {}

  async find(networkId: string, now = Date.now()): Promise<GatewayInfo | null> {
    // A NUL cannot be stored, so no gateway has one; asking the database would fail instead.
    if (networkId.includes('\u0000')) return null;
    const hit = this.cache.get(networkId);
    if (hit && hit.until > now) return hit.info;
    const forgetsBefore = this.forgets;
    const [row] = await this.db
      .select({
        gatewayId: gateways.id,
        networkId: gateways.networkId,
        houseId: gateways.houseId,
        farmId: houses.farmId,
        intervalSeconds: gateways.intervalSeconds,
        tokenHash: gateways.tokenHash,
      })
      .from(gateways)
      .leftJoin(houses, eq(houses.id, gateways.houseId))
      .where(eq(gateways.networkId, networkId))
      .limit(1);
    const info = row ?? null;
    if (this.forgets !== forgetsBefore) return info;
    // Bounded: junk ids must not grow the cache without limit.
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(networkId, { info, until: now + (info ? FOUND_TTL_MS : MISSING_TTL_MS) });
    return info;
  }

  /** Checks a device token against the gateway's stored hash, in constant time. */
  async verifyToken(networkId: string, token: string): Promise<GatewayInfo | null> {
    const info = await this.find(networkId);
    const presented = Buffer.from(hashToken(token), 'hex');
    const expected = info ? Buffer.from(info.tokenHash, 'hex') : Buffer.alloc(presented.length);
    const same = expected.length === presented.length && timingSafeEqual(expected, presented);
    return info && same ? info : null;
  }

  forget(networkId: string): void {
    this.forgets += 1;
    this.cache.delete(networkId);
  }

  /**
   * A house's extra parameters (its terminal devices' own metrics) by code. Kept per house, apart
   * from the gateway entries, because an MQTT connection keeps the gateway it signed in as.
   * A value when cached: an entry older than 30 s is still answered while it is read again in
   * the background, so no reading waits on it. Only a house's first reading gets a promise, the
   * same one for every reading that arrives while it loads: they go on in the order they came,
   * as the batches and the bus promise.
   */
  extrasFor(houseId: number, now = Date.now()): ExtraRanges | null | Promise<ExtraRanges | null> {
    const hit = this.extras.get(houseId);
    if (hit && hit.until <= now && !this.loadingExtras.has(houseId))
      void this.loadExtras(houseId, now).catch(() => undefined);
    if (hit) return hit.ranges;
    return this.loadingExtras.get(houseId) ?? this.loadExtras(houseId, now);
  }

  private loadExtras(houseId: number, now: number): Promise<ExtraRanges | null> {
    const loading: Promise<ExtraRanges | null> = this.readExtras(houseId)
      .then((ranges) => {
        if (this.loadingExtras.get(houseId) !== loading) return ranges;
        if (this.extras.size > 50_000) this.extras.clear();
        this.extras.set(houseId, { ranges, until: now + FOUND_TTL_MS });
        return ranges;
      })
      .finally(() => {
        if (this.loadingExtras.get(houseId) === loading) this.loadingExtras.delete(houseId);
      });
    this.loadingExtras.set(houseId, loading);
    return loading;
  }

  /**
   * Reads asked for in the same few milliseconds go as one statement: every house's entry
   * expires every 30 s, which at 20,000 houses was 667 single-house queries a second waiting
   * for the same pool connections as ingest and the console's requests.
   */
  private readExtras(houseId: number): Promise<ExtraRanges | null> {
    return new Promise((resolve, reject) => {
      this.extrasBatch.push({ houseId, resolve, reject });
      if (this.extrasBatch.length === 1) setTimeout(() => void this.flushExtras(), EXTRAS_BATCH_MS);
    });
  }

  private async flushExtras(): Promise<void> {
    const batch = this.extrasBatch.splice(0);
    try {
      const houseIds = [...new Set(batch.map((b) => b.houseId))];
      // One row per extra parameter of every house asked for; the ids go as one array
      // literal, not a parameter each (a batch may hold thousands of houses).
      const element = this.db
        .select({
          houseId: terminalDevices.houseId,
          e: sql`jsonb_array_elements(${terminalDevices.extras})`.as('e'),
        })
        .from(terminalDevices)
        .where(sql`${terminalDevices.houseId} = any(${`{${houseIds.join(',')}}`}::int[])`)
        .as('x');
      const rows = await this.db
        .select({
          houseId: element.houseId,
          code: sql<string>`${element.e}->>'code'`,
          min: sql<number>`(${element.e}->>'min')::float8`.mapWith(Number),
          max: sql<number>`(${element.e}->>'max')::float8`.mapWith(Number),
        })
        .from(element);
      const byHouse = new Map<number, Map<string, { min: number; max: number }>>();
      for (const r of rows) {
        const ranges = byHouse.get(r.houseId) ?? new Map();
        ranges.set(r.code, { min: r.min, max: r.max });
        byHouse.set(r.houseId, ranges);
      }
      for (const b of batch) b.resolve(byHouse.get(b.houseId) ?? null);
    } catch (error) {
      for (const b of batch) b.reject(error);
    }
  }

  /** A house's extra parameters changed: the next reading reads them again. */
  forgetHouse(houseId: number): void {
    this.extras.delete(houseId);
    this.loadingExtras.delete(houseId);
  }
}
