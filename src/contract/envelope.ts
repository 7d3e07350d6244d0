import { z } from 'zod';
import { PAGE_MAX } from './ids';

/** Every /api answer is wrapped in this envelope; the HTTP status agrees with `code`. */
export interface ApiEnvelope<T> {
  success: boolean;
  code: number;
  msg: string;
  data: T;
}

export const API_CODES = [200, 400, 401, 403, 404, 409, 413, 422, 429, 500, 503] as const;
export type ApiCode = (typeof API_CODES)[number];

export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), code: z.number().int(), msg: z.string(), data });

/** Paging query accepted by every list; `size` is capped so one call cannot ask for everything. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  size: z.coerce.number().int().min(1).max(200).default(20),
});

export const LOCALES = ['en', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];

/** The `Locale` header may say `zh`, `zh-CN`, `en-US` ...: anything else is English. */
export function normaliseLocale(value: string | null | undefined): Locale {
  return value != null && value.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
