import { describe, expect, it } from 'vitest';
import {
  DATE_FORMS,
  fieldText,
  formatClock,
  formatDate,
  formatDateTime,
  parseClockText,
  parseDateText,
  zonedParts,
} from '../../src/i18n/dates';

// A local instant (the module writes the browser's zone): 23 November 2026, 14:03:05.
const instant = new Date(2026, 10, 23, 14, 3, 5);

describe('the console date format', () => {
  it('writes year-month-day and a 24-hour clock, the default format', () => {
    expect(formatDate(instant)).toBe('2026-11-23');
    expect(formatDateTime(instant)).toBe('2026-11-23 14:03:05');
    expect(formatDateTime(instant.getTime(), { seconds: false })).toBe('2026-11-23 14:03');
    expect(formatClock(instant.toISOString())).toBe('14:03:05');
  });

  it('keeps a calendar day the day it names, whatever the zone', () => {
    expect(formatDate('2026-03-01')).toBe('2026-03-01');
    expect(formatDateTime('2026-03-01')).toBe('2026-03-01 00:00:00');
  });

  it('writes nothing for nothing, not "Invalid Date"', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });

  it('reads a typed date in the forms people type, in either language', () => {
    for (const typed of [
      '2026-11-23',
      '2026/11/23',
      '2026.11.23',
      '2026年11月23日',
      ' 2026-1-3 ',
    ]) {
      expect(parseDateText(typed)).toMatch(/^2026-(11-23|01-03)$/);
    }
    expect(parseDateText('2026-11-23 7:05', true)).toBe('2026-11-23T07:05');
    expect(parseDateText('2026年11月23日 7时5分', true)).toBe('2026-11-23T07:05');
    expect(parseDateText('2026-11-23', true)).toBe('2026-11-23T00:00');
  });

  it('refuses what is not a date instead of rolling it over', () => {
    expect(parseDateText('2026-02-30')).toBeNull();
    expect(parseDateText('11/23/2026')).toBeNull();
    expect(parseDateText('2026-11-23 24:00', true)).toBeNull();
    expect(parseDateText('')).toBeNull();
  });

  it('shows a field value in the same form as the tables', () => {
    expect(fieldText('2026-11-23')).toBe(formatDate(instant));
    expect(fieldText('2026-11-23T14:03')).toBe(formatDateTime(instant, { seconds: false }));
  });

  it('names the calendar month and weekdays in each language', () => {
    expect(DATE_FORMS.en.month(2026, 11)).toBe('November 2026');
    expect(DATE_FORMS.zh.month(2026, 11)).toBe('2026年11月');
    expect(DATE_FORMS.en.weekdays).toHaveLength(7);
    expect(DATE_FORMS.zh.weekdays[0]).toBe('一');
  });

  it('takes a time of day on the 24-hour clock however it is typed, and refuses what is no time', () => {
    for (const typed of ['22:00', '2200', '22.00', '22：00', ' 22 : 00 '])
      expect(parseClockText(typed)).toBe('22:00');
    expect(parseClockText('7:05')).toBe('07:05');
    for (const wrong of ['24:00', '7:60', '10:00 PM', '22', 'abc', ''])
      expect(parseClockText(wrong)).toBeNull();
  });
  it('writes a time in a named zone, across midnight and a change to summer time', () => {
    // 16:05:07 UTC is five past midnight of the next day in Shanghai.
    const lateUtc = Date.UTC(2026, 10, 28, 16, 5, 7);
    expect(formatDateTime(lateUtc, { timeZone: 'Asia/Shanghai' })).toBe('2026-11-29 00:05:07');
    expect(formatClock(lateUtc, { seconds: false, timeZone: 'UTC' })).toBe('16:05');
    // London moves from 00:59:59 GMT to 02:00:00 BST at 01:00 UTC on 29 March 2026.
    const london = { timeZone: 'Europe/London' };
    expect(formatDateTime(Date.UTC(2026, 2, 29, 0, 59, 59), london)).toBe('2026-03-29 00:59:59');
    expect(formatDateTime(Date.UTC(2026, 2, 29, 1, 0, 0), london)).toBe('2026-03-29 02:00:00');
    // A half-hour zone.
    expect(formatClock(Date.UTC(2026, 0, 1), { timeZone: 'Asia/Kolkata' })).toBe('05:30:00');
    expect(zonedParts(new Date(lateUtc), 'Asia/Shanghai')).toMatchObject({ day: 29, hour: 0 });
  });
});
