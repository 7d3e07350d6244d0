/**
 * `round(x::numeric, 3)` exactly as PostgreSQL computes it, in JavaScript: the trend reads raw
 * floats and rounds them here, because converting ~40,000 floats to numeric in SQL was most of
 * a 90-day trend's time (PostgreSQL 15: 55 of 95 ms).
 *
 * PostgreSQL first converts the float to numeric with `%.*g` at FLT_DIG (6) significant digits
 * for `real` and DBL_DIG (15) for `double precision` (rounding the exact binary value, ties to
 * even), then rounds that decimal to 3 places, ties away from zero. Both steps are reproduced
 * here: a `real` of 20.123456 gives 20.124 (20.1235 first), a `real` of 1234.5678 gives 1234.57.
 * Checked against PostgreSQL itself by tests/trends/roundLikeNumeric.test.ts.
 */

/** 10^0 … 10^22, all exact doubles. */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
/** 10^-0 … 10^-22, the doubles nearest to them. */
const POW10_NEGATIVE = POW10.map((p) => 1 / p);

/** A `double precision` value as `round(x::numeric, 3)` answers it (numeric has no −0). */
export function roundDouble(x: number): number {
  const y = Math.abs(x) * 1000;
  const fraction = y - Math.floor(y);
  // Far from a half, the 15-digit step cannot move x across a rounding boundary: it moves x by
  // at most 5e-15 of itself (and y carries one rounding error of 1.1e-16 of itself).
  if (Math.abs(fraction - 0.5) > y * 1e-14 + 1e-9) {
    const q = Math.floor(y + 0.5);
    return q === 0 ? 0 : (x < 0 ? -q : q) / 1000;
  }
  return roundExactly(x, 15);
}

/**
 * A `real` value (its float4 value, or any double that rounds to it) as `round(x::numeric, 3)`
 * answers it.
 */
export function roundReal(value: number): number {
  const x = Math.fround(value);
  const a = Math.abs(x);
  if (!Number.isFinite(a)) return x;
  // Below 1e-6, six significant digits are below 0.0005 too.
  if (a < 1e-6) return 0;
  if (a >= 1e15) return roundExactly(x, 6);
  // Six significant digits: digits × 10^-k with 100,000 ≤ digits ≤ 1,000,000 (a carry). No
  // float4 lies between a power of ten and its double, so these comparisons are exact.
  let k = 5;
  if (a >= 1) while (k > -9 && a >= POW10[5 - k + 1]!) k -= 1;
  else while (a < POW10_NEGATIVE[k - 5]!) k += 1;
  let digits: number;
  if (k >= 0) {
    // Exact: a float4 has 24 significant bits and 10^k (k ≤ 11) at most 26 odd ones.
    const y = a * POW10[k]!;
    digits = Math.floor(y);
    const r = y - digits;
    if (r > 0.5 || (r === 0.5 && digits % 2 === 1)) digits += 1;
  } else {
    // a ≥ 10^6: divide by 10^-k with an exact remainder (a < 10^15, q × p an exact integer).
    const p = POW10[-k]!;
    digits = Math.floor(a / p);
    const r = a - digits * p;
    if (2 * r > p || (2 * r === p && digits % 2 === 1)) digits += 1;
  }
  // Then to 3 decimals, ties away from zero.
  if (k > 3) {
    const p = POW10[k - 3]!;
    let q = Math.floor(digits / p);
    if (2 * (digits - q * p) >= p) q += 1;
    digits = q;
    k = 3;
  }
  if (digits === 0) return 0;
  const magnitude = k >= 0 ? digits / POW10[k]! : digits * POW10[-k]!;
  return x < 0 ? -magnitude : magnitude;
}

/**
 * The slow and exact way, for values next to a tie: x's exact decimal expansion (toPrecision
 * gives it exactly: above 1e-6 a double has fewer than 100 significant digits), rounded to
 * `significant` digits with ties to even, then to 3 decimals with ties away from zero.
 */
function roundExactly(x: number, significant: number): number {
  const a = Math.abs(x);
  if (!Number.isFinite(a) || a >= 1e21) return x;
  if (a < 1e-6) return 0;
  const text = a.toPrecision(100);
  const point = text.indexOf('.');
  const all = text.slice(0, point) + text.slice(point + 1);
  // a = value × 10^-scale
  let value = BigInt(all);
  let scale = all.length - point;
  const drop = all.length - all.search(/[1-9]/) - significant;
  if (drop > 0) {
    const p = 10n ** BigInt(drop);
    const r = value % p;
    value /= p;
    if (2n * r > p || (2n * r === p && value % 2n === 1n)) value += 1n;
    scale -= drop;
  }
  if (scale > 3) {
    const p = 10n ** BigInt(scale - 3);
    const r = value % p;
    value /= p;
    if (2n * r >= p) value += 1n;
    scale = 3;
  }
  if (value === 0n) return 0;
  return Number(`${x < 0 ? '-' : ''}${value}e${-scale}`);
}
