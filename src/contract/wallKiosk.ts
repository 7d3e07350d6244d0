import { z } from 'zod';
import { jsonIdSchema } from './ids';
import {
  DEFAULT_WALL_LAYOUT,
  TOUR_FITS,
  tourFitsLayout,
  wallDisplaySchema,
  wallLayoutSchema,
  wallTourSchema,
} from './wallLayout';

/** A kiosk link's name: what the administrator calls the wall ("Control room east"). */
export const KIOSK_NAME_MAX = 60;
/** A chosen scope names at most this many farms (a wall shows a region, not a list). */
export const KIOSK_FARMS_MAX = 500;

/**
 * POST /api/wall/kiosk/create. The scope is chosen once, at creation: every farm, or the farms
 * named. A changed scope is a new link (and the old one revoked), so a link never widens.
 */
export const kioskCreateSchema = z
  .object({
    name: z.string().trim().min(1, 'wall.kioskNameRequired').max(KIOSK_NAME_MAX),
    allFarms: z.boolean(),
    farmIds: z.array(jsonIdSchema).max(KIOSK_FARMS_MAX).default([]),
    layout: wallLayoutSchema.default(DEFAULT_WALL_LAYOUT),
    tour: wallTourSchema.nullable().default(null),
  })
  .refine((v) => v.allFarms || v.farmIds.length > 0, {
    message: 'wall.kioskScopeRequired',
    path: ['farmIds'],
  })
  .refine(tourFitsLayout, TOUR_FITS);
export type KioskCreate = z.input<typeof kioskCreateSchema>;

/** POST /api/wall/kiosk/revoke. */
export const kioskRevokeSchema = z.object({ id: jsonIdSchema });

/**
 * POST /api/wall/kiosk/layout: a link's panels and tour change; its scope never does. A wall
 * open with the link takes the change at its next load.
 */
export const kioskLayoutSchema = z
  .object({ id: jsonIdSchema, layout: wallLayoutSchema, tour: wallTourSchema.nullable() })
  .refine(tourFitsLayout, TOUR_FITS);
export type KioskLayout = z.input<typeof kioskLayoutSchema>;

/** GET /api/wall/kiosk/self: what a kiosk token learns about its own link, nothing more. */
export const kioskSelfSchema = wallDisplaySchema.extend({ name: z.string() });
export type KioskSelf = z.infer<typeof kioskSelfSchema>;

/** One link as the console lists it; the token itself is never listed (only its hash is kept). */
export const kioskLinkSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  allFarms: z.boolean(),
  farms: z.array(z.object({ farmId: z.number().int(), name: z.string() })),
  createdBy: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  layout: wallDisplaySchema.shape.layout,
  tour: wallDisplaySchema.shape.tour,
});
export type KioskLink = z.infer<typeof kioskLinkSchema>;

export const kioskListSchema = z.array(kioskLinkSchema);

/** The answer to a creation: the link and its token, shown this once and never again. */
export const kioskCreatedSchema = z.object({ link: kioskLinkSchema, token: z.string() });
export type KioskCreated = z.infer<typeof kioskCreatedSchema>;

/**
 * The wall opened by a kiosk link: the token travels in the address's fragment (`#token`), which
 * browsers never send to a server, so it stays out of access logs and Referer headers.
 */
export const KIOSK_SCREEN_PATH = '/screenDatav/kiosk';
