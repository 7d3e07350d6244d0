import { describe, expect, it } from 'vitest';
import type { Notification } from '../../server/alarms/channels';
import { alarmParts, alarmText } from '../../server/notify/message';
import type { Alarm, AlarmCause } from '../../src/contract/alarms';
import { NOTE } from './standIn';

/** The standard alarm of the stand-in tests with another cause, subject, reading and limit. */
const alarmOf = (
  cause: AlarmCause,
  subject: string | null,
  value: number,
  limit: number | null,
): Alarm => ({ ...NOTE.alarm, cause, subject, value, limit });
const valueOf = (alarm: Alarm, locale: 'en' | 'zh') =>
  alarmParts(alarm, locale, 'Asia/Shanghai').value;

describe('numbers in alarm messages: one rule for units and precision', () => {
  it('writes the reading and the limit with the unit, to the console precision', () => {
    const hot = alarmOf('temperatureHigh', 'temperature', 38.5, 25.428572);
    expect(valueOf(hot, 'en')).toBe('38.5 ℃ (limit 25.4 ℃)');
    expect(valueOf(hot, 'zh')).toBe('38.5 ℃（限值 25.4 ℃）');
    const n: Notification = { ...NOTE, alarm: hot, link: null };
    expect(alarmText(n, 'en', 'Asia/Shanghai').split('\n')[1]).toBe(
      'Weifang Broiler Farm / House 3: 38.5 ℃ (limit 25.4 ℃)',
    );
    // A probe is the same quantity as the house's temperature.
    expect(valueOf(alarmOf('temperatureHigh', 'temperature_3', 30, 28), 'en')).toBe(
      '30 ℃ (limit 28 ℃)',
    );
  });

  it('gives percentages their %, large readings no decimals, warnings their own unit', () => {
    expect(valueOf(alarmOf('humidityHigh', 'humidity', 94.8, 25), 'zh')).toBe(
      '94.8 %（限值 25 %）',
    );
    expect(valueOf(alarmOf('co2High', 'co2', 3456.7, 3000), 'en')).toBe(
      '3457 ppm (limit 3000 ppm)',
    );
    expect(valueOf(alarmOf('waterDrop', null, 31.25, 20), 'en')).toBe('31.3 % (limit 20 %)');
    expect(valueOf(alarmOf('feedBinLow', null, 5, 12), 'zh')).toBe('5 h（限值 12 h）');
    // A stuck sensor has a reading and no limit: the reading alone, with its unit.
    expect(valueOf(alarmOf('sensorStuck', 'nh3', 12.25, null), 'en')).toBe('12.3 ppm');
  });
});

describe('codes in alarm messages are said in the reader’s language', () => {
  it('says what a device’s error state means and what a controller’s code and a sentinel say', () => {
    const fan = alarmOf('deviceError', 'fan_1', 3, null);
    expect(valueOf(fan, 'en')).toBe('Fan 1: Error (state 3)');
    expect(valueOf(fan, 'zh')).toBe('风机 1：故障（状态 3）');
    const probe: Alarm = {
      ...NOTE.alarm,
      cause: 'controllerAlarm',
      subject: 'probe_3_disconnected',
      value: null,
      limit: null,
      text: 'Temperature probe 3 not connected',
    };
    expect(valueOf(probe, 'zh')).toBe('温度探头 3 未接入');
    const unplugged: Alarm = {
      ...probe,
      cause: 'sensorFault',
      subject: 'co2',
      text: 'notConnected',
    };
    expect(valueOf(unplugged, 'en')).toMatch(/^CO2.* \(Not connected\)$/);
    expect(valueOf(unplugged, 'zh')).toMatch(/（未接入）$/);
  });
});
