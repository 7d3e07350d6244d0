import { z } from 'zod';
import { idSchema } from './ids';

/**
 * Gateway enrolment: a farm administrator asks for a single-use code for a house's gateway,
 * valid ENROL_CODE_MINUTES; Roost Edge (`roost-edge enroll <code>`) trades it at the public
 * POST /api/edge/enrol for the gateway's network id, a new device token and the broker's URL.
 */
export const ENROL_CODE_MINUTES = 15;

/** Twelve letters and digits without look-alikes (0/O, 1/I/L), in three groups: 59 bits. */
export const ENROL_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const ENROL_CODE_PATTERN = /^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;

/** A code as typed: case, spaces and missing dashes forgiven. */
export function normaliseEnrolCode(code: string): string {
  const plain = code.toUpperCase().replace(/[\s-]/g, '');
  return plain.length === 12
    ? `${plain.slice(0, 4)}-${plain.slice(4, 8)}-${plain.slice(8)}`
    : plain;
}

/** PUT /api/gateway/enrolCode: the gateway's id. */
export const enrolCodeRequestSchema = z.object({ id: idSchema });

export const enrolCodeSchema = z.object({
  id: z.number().int(),
  networkId: z.string(),
  /** Shown once; stored only as its sha256. */
  code: z.string(),
  /** ISO 8601. */
  expiresAt: z.string(),
});
export type EnrolCode = z.infer<typeof enrolCodeSchema>;

/** POST /api/edge/enrol. */
export const enrolRequestSchema = z.object({
  code: z
    .string()
    .max(40, 'edge.enrolUnknown')
    .transform(normaliseEnrolCode)
    .pipe(z.string().regex(ENROL_CODE_PATTERN, 'edge.enrolUnknown')),
});

export const enrolAnswerSchema = z.object({
  networkId: z.string(),
  token: z.string(),
  /** Where the gateway connects (user name: network id, password: token). */
  mqttUrl: z.string(),
});
export type EnrolAnswer = z.infer<typeof enrolAnswerSchema>;
