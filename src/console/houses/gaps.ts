/**
 * A curve's points with a null inserted where two neighbours are further apart than `maxStep`:
 * the chart draws no line across a time without readings (a gateway cut off), never interpolates.
 */
export function breakAtGaps<P extends { x: number; y: number | null }>(
  points: readonly P[],
  maxStep: number,
): Array<{ x: number; y: number | null }> {
  const out: Array<{ x: number; y: number | null }> = [];
  let previous: number | null = null;
  for (const p of points) {
    if (previous !== null && p.x - previous > maxStep)
      out.push({ x: (previous + p.x) / 2, y: null });
    out.push({ x: p.x, y: p.y });
    previous = p.x;
  }
  return out;
}

/**
 * The widest step between readings that is not a gap: three times the larger of the bucket and
 * the gateway's interval, the same three intervals after which a gateway counts as offline.
 */
export function gapStep(bucketMs: number, intervalSeconds: number | null): number {
  return 3 * Math.max(bucketMs, (intervalSeconds ?? 60) * 1000);
}
