import { describe, expect, it } from 'vitest';
import {
  aliveText,
  figure,
  formatNumber,
  grouped,
  NO_FIGURE,
  percent,
  tenThousands,
} from '../../src/i18n/numbers';

describe('the one number formatter', () => {
  it('writes a reading whole, to a tenth, or without decimals when it is large', () => {
    expect(formatNumber(25)).toBe('25');
    expect(formatNumber(24.53)).toBe('24.5');
    expect(formatNumber(-0.26)).toBe('-0.3');
    expect(formatNumber(1234.6)).toBe('1235');
    expect(formatNumber(-150.4)).toBe('-150');
  });

  it('shows a dash for a missing figure, never 0', () => {
    expect(figure(null)).toBe(NO_FIGURE);
    expect(figure(undefined)).toBe(NO_FIGURE);
    expect(figure(0)).toBe('0.0');
    expect(figure(3.14159, 3)).toBe('3.142');
    expect(percent(null)).toBe(NO_FIGURE);
    expect(percent(12.345)).toBe('12.3 %');
    expect(percent(0.5, 2)).toBe('0.50 %');
    expect(tenThousands(null)).toBe(NO_FIGURE);
  });

  it('groups thousands by the chosen language, not the browser’s', () => {
    expect(grouped(1234567, 'en')).toBe('1,234,567');
    expect(grouped(1234567, 'zh')).toBe('1,234,567');
    expect(grouped(1234567, 'zh-CN')).toBe('1,234,567');
    // A language Roost does not speak reads as English (German would write 1.234.567).
    expect(grouped(1234567, 'de')).toBe('1,234,567');
    expect(grouped(12.3456, 'en', 2)).toBe('12.35');
    expect(grouped(12.5, 'en')).toBe('13');
    expect(grouped(12.1, 'zh', 2)).toBe('12.1');
  });

  it('counts birds in 万 for Chinese readers and whole for English ones', () => {
    expect(tenThousands(128_450)).toBe('12.85');
    expect(tenThousands(45_000)).toBe('4.500');
    expect(aliveText('zh', 128_450)).toBe('12.85');
    expect(aliveText('zh-CN', 128_450)).toBe('12.85');
    expect(aliveText('en', 128_450.4)).toBe('128,450');
    // One rule for every page (Home, Flocks, the KPI table): small flocks keep their digits.
    expect(aliveText('zh', 45_000)).toBe('4.500');
    expect(aliveText('en', 45_000)).toBe('45,000');
    expect(aliveText('en', null)).toBe(NO_FIGURE);
  });
});
