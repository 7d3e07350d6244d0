import type { Camera, CameraVendor } from '../../src/contract/cameras';
import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { houseScopeWhere } from './access';

interface CameraRow {
  id: number;
  houseId: number;
  houseName: string;
  name: string;
  code: string;
  channel: number;
  vendor: CameraVendor;
  streamUrl: string;
  hasUserName: boolean;
  hasPassword: boolean;
  hasVerifyCode: boolean;
}

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
  const params: unknown[] = [];
  const where = [houseScopeWhere(scope, params, 'c.house_id')];
  if (filter.id !== undefined) where.push(`c.id = $${params.push(filter.id)}`);
  if (filter.houseId !== undefined) where.push(`c.house_id = $${params.push(filter.houseId)}`);
  if (filter.search)
    where.push(
      `(c.name ilike $${params.push(`%${filter.search}%`)} or c.code ilike $${params.length})`,
    );
  const rows = await database.query<CameraRow>(
    `select c.id, c.house_id as "houseId", h.name as "houseName", c.name, c.code, c.channel,
       c.vendor, c.stream_url as "streamUrl", c.user_name_secret <> '' as "hasUserName",
       c.password_secret <> '' as "hasPassword", c.verify_code_secret <> '' as "hasVerifyCode"
     from cameras c join houses h on h.id = c.house_id
     where ${where.join(' and ')} order by h.name, c.name, c.id`,
    params,
  );
  return rows.map((r) => ({ ...r, playUrl: playUrlOf(r, mediaUrl) }));
}
