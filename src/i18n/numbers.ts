import { normaliseLocale } from '../contract/envelope';

/**
 * The console's one way of writing numbers for people, as dates.ts is for dates. Figures keep
 * the decimal point in both languages (Chinese writes 12.5 too); what differs by language is
 * how a large count is grouped and whether birds are counted in 万 (10,000). Nothing here
 * calls a bare `toLocaleString()`: its output follows the browser's language, not the one the
 * user chose, which is how one page showed 12,345 beside 12.345.
 */

/** What a missing figure shows: a dash, never 0 (a 0 would be a reading). */
export const NO_FIGURE = '—';

/**
 * A live reading or a limit: whole numbers as they are, large ones without decimals (a CO₂ of
 * 1,234.6 ppm needs no tenth), the rest to one decimal (a temperature of 24.53 → 24.5).
 */
export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/**
 * A reading or limit with its unit, as every message writes it: the number as `formatNumber`
 * makes it, a space, then the unit ("38.5 ℃", "94.8 %", "1235 ppm"); the number alone when
 * the quantity has no unit. One rule for the console and the server's messages alike.
 */
export function measure(value: number, unit: string): string {
  return unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);
}

/** A figure with the digits it deserves, the dash when missing. */
export function figure(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined ? NO_FIGURE : value.toFixed(digits);
}

/** A percentage to `digits` decimals, with the space the product writes before the sign. */
export function percent(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined ? NO_FIGURE : `${value.toFixed(digits)} %`;
}

/** One formatter per language and precision: building an Intl.NumberFormat costs far more. */
const grouping = new Map<string, Intl.NumberFormat>();

/**
 * A count or amount with the thousands grouping of `language` (an i18next language: zh,
 * zh-CN, en ...), 12,345, at most
 * `maxFractionDigits` decimals (trailing zeros dropped).
 */
export function grouped(value: number, language: string, maxFractionDigits = 0): string {
  const locale = normaliseLocale(language);
  const key = `${locale}:${maxFractionDigits}`;
  let format = grouping.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale === 'zh' ? 'zh-CN' : 'en-US', {
      maximumFractionDigits: maxFractionDigits,
    });
    grouping.set(key, format);
  }
  return format.format(value);
}

/** A count of birds as a farmer reads it: in ten thousands (万只), more digits when it is small. */
export function tenThousands(count: number | null): string {
  return count === null ? NO_FIGURE : (count / 10_000).toFixed(count >= 100_000 ? 2 : 3);
}

/**
 * A count of birds as each language counts them, the one rule for every page: Chinese farmers
 * count in 万 (10,000, the label says so), English readers read the whole number ("Alive (10K)"
 * with "12.85" had to be explained).
 */
export function aliveText(language: string, count: number | null): string {
  if (count === null) return NO_FIGURE;
  if (normaliseLocale(language) === 'zh') return tenThousands(count);
  return grouped(Math.round(count), 'en');
}

const currencies = new Map<string, Intl.NumberFormat>();

/**
 * An amount of money in a tariff's currency (ISO 4217), as the reader's language writes it
 * (en "CN¥402.00", zh "¥402.00"), with that currency's own decimals; the dash when missing.
 */
export function money(value: number | null | undefined, currency: string, language: string) {
  if (value === null || value === undefined) return NO_FIGURE;
  const locale = normaliseLocale(language) === 'zh' ? 'zh-CN' : 'en-US';
  const key = `${locale}:${currency}`;
  let format = currencies.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    currencies.set(key, format);
  }
  return format.format(value);
}
