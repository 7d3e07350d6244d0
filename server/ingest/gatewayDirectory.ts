import { timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { gateways, houses } from '../db/schema';
import { hashToken } from '../auth/tokens';

export interface GatewayInfo {
  gatewayId: number;
  networkId: string;
  houseId: number | null;
  farmId: number | null;
  intervalSeconds: number;
  tokenHash: string;
  /** The house's extra parameters (terminal devices' own metrics) by code; null when none. */
  extras: ExtraRanges | null;
}

export type ExtraRanges = ReadonlyMap<string, { min: number; max: number }>;

type ExtraRow = { code: string; min: number; max: number };

/** The extra parameters of the gateway's house, cached with the gateway (one subquery, no extra trip). */
const EXTRAS_OF_HOUSE =
  sql.raw(`select jsonb_agg(jsonb_build_object('code', e->>'code', 'min', (e->>'min')::float8, 'max', (e->>'max')::float8))
  from terminal_devices d, jsonb_array_elements(d.extras) e where d.house_id = "gateways"."house_id"`);

function extraRanges(rows: ExtraRow[] | string | null): ExtraRanges | null {
  const list = typeof rows === 'string' ? (JSON.parse(rows) as ExtraRow[] | null) : rows;
  if (!list || list.length === 0) return null;
  return new Map(list.map((r) => [r.code, { min: r.min, max: r.max }]));
}

/**
 * Gateway look-ups on the hot path. Entries live 30 s, so a gateway moved to another house or
 * given a new token is picked up within that time by every server process; unknown ids are
 * remembered 5 s so a stream of junk ids cannot flood the database.
 */
const FOUND_TTL_MS = 30_000;
const MISSING_TTL_MS = 5_000;

export class GatewayDirectory {
  private readonly cache = new Map<string, { info: GatewayInfo | null; until: number }>();

  constructor(private readonly db: Db) {}

  async find(networkId: string, now = Date.now()): Promise<GatewayInfo | null> {
    const hit = this.cache.get(networkId);
    if (hit && hit.until > now) return hit.info;
    const [row] = await this.db
      .select({
        gatewayId: gateways.id,
        networkId: gateways.networkId,
        houseId: gateways.houseId,
        farmId: houses.farmId,
        intervalSeconds: gateways.intervalSeconds,
        tokenHash: gateways.tokenHash,
        extras: sql<ExtraRow[] | string | null>`(${EXTRAS_OF_HOUSE})`,
      })
      .from(gateways)
      .leftJoin(houses, eq(houses.id, gateways.houseId))
      .where(eq(gateways.networkId, networkId))
      .limit(1);
    const info = row ? { ...row, extras: extraRanges(row.extras) } : null;
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
    this.cache.delete(networkId);
  }
}
