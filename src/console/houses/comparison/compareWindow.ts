import { type TrendGranularity } from '../../../contract/overview';

export const WINDOWS = ['week', 'month', 'quarter', 'custom'] as const;
export type CompareWindow = (typeof WINDOWS)[number];

const DAY_MS = 86_400_000;
/** Comparison windows: latest week, month, three months. */
const WINDOW_DAYS: Record<Exclude<CompareWindow, 'custom'>, number> = {
  week: 7,
  month: 30,
  quarter: 90,
};
const BUCKET_MS: Record<TrendGranularity, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: DAY_MS,
  month: 30 * DAY_MS,
};

/** The window's [from, to) in ms; a custom one from two yyyy-MM-dd dates (the end day included). */
export function windowRange(
  window: CompareWindow,
  now: number,
  custom: { from: string; to: string },
): { from: number; to: number } | null {
  if (window !== 'custom') return { from: now - WINDOW_DAYS[window] * DAY_MS, to: now };
  const from = Date.parse(`${custom.from}T00:00:00`);
  const to = Date.parse(`${custom.to}T00:00:00`) + DAY_MS;
  return Number.isFinite(from) && Number.isFinite(to) && from < to ? { from, to } : null;
}

/** Points per house, to warn before an export that big. */
export function pointsOf(
  range: { from: number; to: number },
  granularity: TrendGranularity,
): number {
  return Math.ceil((range.to - range.from) / BUCKET_MS[granularity]);
}
