import { z } from 'zod';

/**
 * Cameras of a house and their live view. The user name, password and verify code go in and
 * never come back out: an answer says only whether each is set.
 */

const id = z.coerce.number().int().positive().max(2_147_483_647);
const text = (max: number) => z.string().trim().max(max).default('');

/** Hikvision/EZVIZ-style cameras carry a device verify code; Dahua/Imou-style ones do not. */
export const CAMERA_VENDORS = ['hikvision', 'dahua'] as const;
export type CameraVendor = (typeof CAMERA_VENDORS)[number];

/** A media gateway's HLS address: http(s) only, so a browser can play it. */
const streamUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), { message: 'devices.badStreamUrl' })
  .default('');

export const cameraInputSchema = z.object({
  houseId: id,
  name: z.string().trim().min(1).max(60),
  code: z.string().trim().min(1).max(60),
  channel: z.coerce.number().int().min(1).max(256).default(1),
  vendor: z.enum(CAMERA_VENDORS),
  userName: text(60),
  /** Absent on update: the stored one is kept. */
  password: z.string().max(120).optional(),
  verifyCode: z.string().trim().max(60).optional(),
  streamUrl,
});
export type CameraInput = z.input<typeof cameraInputSchema>;
export const cameraUpdateSchema = cameraInputSchema.extend({ id });

export const cameraSchema = z.object({
  id: z.number().int(),
  houseId: z.number().int(),
  houseName: z.string(),
  name: z.string(),
  code: z.string(),
  channel: z.number().int(),
  vendor: z.enum(CAMERA_VENDORS),
  /** The address set on this camera (empty: the installation's media gateway is used). */
  streamUrl: z.string(),
  /** What the console plays: this camera's address, or ROOST_MEDIA_URL with its code; null: none. */
  playUrl: z.string().nullable(),
  hasUserName: z.boolean(),
  hasPassword: z.boolean(),
  hasVerifyCode: z.boolean(),
});
export type Camera = z.infer<typeof cameraSchema>;

export const cameraListQuerySchema = z.object({
  houseId: id.optional(),
  search: z.string().trim().max(60).optional(),
});

/** The cameras the list asks for, and their count. */
export const cameraListSchema = z.object({ rows: z.array(cameraSchema), total: z.number().int() });
