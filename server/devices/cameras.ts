import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Camera, CameraVendor } from '../../src/contract/cameras';
import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { cameras } from '../db/devicesSchema';
import { houses } from '../db/schema';
import { houseScopeWhere } from './access';

/**
 * What the console plays: the camera's own address, else the installation's media gateway
 * (ROOST_MEDIA_URL, e.g. a MediaMTX `http://nvr:8888`) with the camera's code as its path.
 */
export function playUrlOf(camera: { streamUrl: string; code: string }, mediaUrl: string | null) {
  if (camera.streamUrl) return camera.streamUrl;
  // A code `.` or `..` would name the gateway's root or above it, not a folder of its own.
  if (!mediaUrl || camera.code === '.' || camera.code === '..') return null;
  return `${mediaUrl.replace(/\/+$/, '')}/${encodeURIComponent(camera.code)}/index.m3u8`;
}

/** `url`'s scheme, host (lower case, no trailing dot) and port; null if it is not a URL. */
function originOf(url: string | URL): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname.replace(/\.$/, '')}:${u.port}`;
  } catch {
    return null;
  }
}

/**
 * Whether `url` is on the media gateway's origin (ROOST_MEDIA_URL's scheme, host and port). A
 * camera reaches the gateway only through its code, its own folder: an own address there could
 * name another camera's folder, in any house or organisation, and play it.
 */
export function onMediaGateway(url: string | URL, mediaUrl: string | null): boolean {
  const gateway = mediaUrl ? originOf(mediaUrl) : null;
  return gateway !== null && originOf(url) === gateway;
}

/** Cameras of the houses in scope; the credentials only as "set or not". */
export async function readCameras(
  database: Database,
  scope: Scope,
  filter: { id?: number; houseId?: number; search?: string },
  mediaUrl: string | null,
): Promise<Camera[]> {
  const pattern = filter.search ? `%${filter.search}%` : null;
  const rows = await database.db
    .select({
      id: cameras.id,
      houseId: cameras.houseId,
      houseName: houses.name,
      name: cameras.name,
      code: cameras.code,
      channel: cameras.channel,
      vendor: cameras.vendor,
      streamUrl: cameras.streamUrl,
      hasUserName: sql<boolean>`${cameras.userNameSecret} <> ''`,
      hasPassword: sql<boolean>`${cameras.passwordSecret} <> ''`,
      hasVerifyCode: sql<boolean>`${cameras.verifyCodeSecret} <> ''`,
    })
    .from(cameras)
    .innerJoin(houses, eq(houses.id, cameras.houseId))
    .where(
      and(
        houseScopeWhere(scope, cameras.houseId),
        filter.id !== undefined ? eq(cameras.id, filter.id) : undefined,
        filter.houseId !== undefined ? eq(cameras.houseId, filter.houseId) : undefined,
        pattern ? or(ilike(cameras.name, pattern), ilike(cameras.code, pattern)) : undefined,
      ),
    )
    .orderBy(asc(houses.name), asc(cameras.name), asc(cameras.id));
  return rows.map((r) => ({
    ...r,
    vendor: r.vendor as CameraVendor,
    playUrl: playUrlOf(r, mediaUrl),
  }));
}
