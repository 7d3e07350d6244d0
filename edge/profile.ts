import { z } from 'zod';
import { PARAM_BY_KEY } from '../src/contract/envcontrol';
import { METRIC_BY_KEY } from '../src/contract/metrics';
import { loadJsonFile } from './loadFile';

/**
 * A controller profile (point map): what one controller model holds in which registers, and
 * what each register means to Roost. One JSON file per model under edge/profiles/.
 */
export const FUNCTIONS = ['holding', 'input', 'coil', 'discrete'] as const;
export type RegisterFunction = (typeof FUNCTIONS)[number];
export const VALUE_TYPES = ['int16', 'uint16', 'int32', 'uint32', 'float32', 'bool'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

/** What a sentinel raw value says, as Roost's fault kinds (src/contract/metrics.ts). */
export const FAULT_VALUES = {
  notConnected: -999,
  notConfigured: -998,
  notEntered: -888,
  error: -600,
};
const faultKind = z.enum(['notConnected', 'notConfigured', 'notEntered', 'error']);

const register = z.number().int().min(0).max(65535);
const location = {
  function: z.enum(FUNCTIONS),
  register,
  type: z.enum(VALUE_TYPES).default('int16'),
  /** For 32-bit values: which of the two registers holds the high word. */
  wordOrder: z.enum(['high-first', 'low-first']).default('high-first'),
};

const pointSchema = z
  .object({
    metric: z.string().refine((k) => METRIC_BY_KEY.has(k), {
      message: 'not a metric of the catalogue (src/contract/metrics.ts)',
    }),
    ...location,
    scale: z
      .number()
      .refine((n) => n !== 0, 'scale may not be 0')
      .default(1),
    offset: z.number().default(0),
    /** Raw register value → what it means instead of a measurement. */
    sentinels: z.record(z.string().regex(/^-?\d+$/, 'a whole raw value'), faultKind).default({}),
    /**
     * The register holds a running total (a meter's kWh, a water meter's litres): Roost counts
     * the amount since the previous reading, so the edge sends the difference.
     */
    total: z.boolean().default(false),
  })
  .strict();

const modeSchema = z
  .object({
    ...location,
    /** Raw value → Roost run mode code (src/contract/domain.ts RUN_MODES). */
    values: z.record(z.string().regex(/^\d+$/), z.number().int().min(0).max(255)),
  })
  .strict();

const alarmSchema = z
  .object({
    function: z.enum(FUNCTIONS),
    register,
    /** Bit within a holding or input register (0 = least significant); coils and inputs have none. */
    bit: z.number().int().min(0).max(15).optional(),
    code: z.string().regex(/^[a-z0-9_]{1,40}$/, 'snake_case, at most 40 characters'),
    text: z.string().max(200).optional(),
    /** What it is to Roost: a controller alarm or a digital input. */
    kind: z.enum(['alarm', 'di']).default('alarm'),
  })
  .strict();

const paramSchema = z
  .object({
    param: z.string().refine((k) => PARAM_BY_KEY.has(k), {
      message: 'not a parameter of the catalogue (src/contract/envcontrol.ts)',
    }),
    function: z.literal('holding').default('holding'),
    register,
    type: z.enum(['int16', 'uint16', 'int32', 'uint32', 'float32']).default('int16'),
    wordOrder: z.enum(['high-first', 'low-first']).default('high-first'),
    scale: z
      .number()
      .refine((n) => n !== 0, 'scale may not be 0')
      .default(1),
    offset: z.number().default(0),
    /** The controller's own limits, in the parameter's unit; a value outside is refused. */
    min: z.number().optional(),
    max: z.number().optional(),
  })
  .strict();

export const profileSchema = z
  .object({
    /** Says what the file is: every shipped profile is an example to adapt, never a vendor's map. */
    note: z.string().optional(),
    model: z.string().min(1).max(80),
    /** Registers between two points that may be read along in one request (0: only contiguous). */
    readGap: z.number().int().min(0).max(16).default(0),
    points: z.array(pointSchema).default([]),
    mode: modeSchema.optional(),
    alarms: z.array(alarmSchema).default([]),
    params: z.array(paramSchema).default([]),
  })
  .strict()
  .superRefine((profile, ctx) => {
    const seen = new Set<string>();
    profile.params.forEach((p, i) => {
      if (seen.has(p.param))
        ctx.addIssue({ code: 'custom', path: ['params', i, 'param'], message: 'listed twice' });
      seen.add(p.param);
    });
    profile.alarms.forEach((a, i) => {
      const word = a.function === 'holding' || a.function === 'input';
      if (word && a.bit === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['alarms', i],
          message: 'a register alarm needs its bit',
        });
    });
    profile.points.forEach((p, i) => {
      const bits = p.function === 'coil' || p.function === 'discrete';
      if (bits !== (p.type === 'bool'))
        ctx.addIssue({
          code: 'custom',
          path: ['points', i, 'type'],
          message: 'coils and discrete inputs are bool; registers are not',
        });
    });
  });

export type Profile = z.infer<typeof profileSchema>;
export type ProfilePoint = Profile['points'][number];
export type ProfileParam = Profile['params'][number];

export function loadProfile(file: string): Profile {
  return loadJsonFile(file, profileSchema);
}

/** Registers a value of this type takes. */
export function widthOf(type: ValueType): number {
  return type === 'int32' || type === 'uint32' || type === 'float32' ? 2 : 1;
}
