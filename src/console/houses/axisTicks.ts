/**
 * The values and labels of a value axis: as many decimals as the step between two ticks needs,
 * so a narrow range (25.32 … 25.48) reads 25.35, 25.40, 25.45 instead of 25.4, 25.4, 25.5.
 */
export function valueTicks(ticks: number[]): { values: number[]; format: (v: number) => string } {
  const step = ticks.length > 1 ? Math.abs(ticks[1]! - ticks[0]!) : 1;
  // A step of 0.05 needs 2 decimals, 0.2 one, 5 none; the epsilon absorbs 0.1 + 0.2 residue.
  const decimals = step > 0 ? Math.min(6, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9))) : 0;
  const exact = (v: number) => v.toFixed(decimals);
  const needsMore = new Set(ticks.map(exact)).size < ticks.length;
  const digits = needsMore ? decimals + 1 : decimals;
  // A tick at zero may come out of the scale as -1e-17: never print it as "-0.0".
  const format = (v: number) => (Math.abs(v) < 10 ** -digits / 2 ? 0 : v).toFixed(digits);
  return { values: ticks, format };
}
