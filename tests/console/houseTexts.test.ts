import { describe, expect, it } from 'vitest';
import { RUN_MODES } from '../../src/contract/domain';
import { alarmText, modeText } from '../../src/console/houses/format';
import { alarmConcern } from '../../src/contract/alarmWords';
import { aliveText } from '../../src/i18n/numbers';
import { createI18n } from '../../src/i18n';

const en = createI18n('en').t;
const zh = createI18n('zh').t;

describe('what a house card says', () => {
  it('names every run mode the contract knows, in en and zh, and "Undefined" only for an unknown code', () => {
    for (const code of Object.keys(RUN_MODES).map(Number)) {
      expect(modeText(en, code)).not.toBe('Undefined');
      expect(modeText(zh, code)).not.toBe('未定义');
    }
    expect([modeText(en, 97), modeText(en, 98)]).toEqual(['Error', 'External stop']);
    expect([modeText(zh, 97), modeText(zh, 98)]).toEqual(['故障', '外部停止']);
    expect(modeText(en, 42)).toBe('Undefined');
    expect(modeText(en, null)).toBe('—');
  });

  it('words an alarm by its cause, then its subject by name, never by key', () => {
    const offline = {
      cause: 'gatewayOffline',
      subject: null,
      value: null,
      limit: null,
      text: null,
    } as const;
    expect(alarmText(en, 'en', offline)).toBe('Gateway offline');
    expect(alarmText(zh, 'zh', offline)).toBe('网关离线');
    const hot = {
      cause: 'temperatureHigh',
      subject: 'temperature',
      value: 32.14,
      limit: 30,
      text: null,
    } as const;
    expect(alarmText(en, 'en', hot)).toMatch(/^Temperature too high: .*32\.1 \/ 30$/);
    expect(alarmText(en, 'en', hot)).not.toContain('temperatureHigh');
    const fan = {
      cause: 'deviceError',
      subject: 'fan_2',
      value: null,
      limit: null,
      text: null,
    } as const;
    expect(alarmText(en, 'en', fan)).toBe('Device error: Fan 2');
    expect(alarmText(zh, 'zh', fan)).not.toContain('fan_2');
  });

  it('words what the engine and controllers send as codes: sentinels, stuck sensors, controller alarm codes', () => {
    const unplugged = {
      cause: 'sensorFault',
      subject: 'temperature',
      value: null,
      limit: null,
      text: 'notConnected',
    } as const;
    const probe = {
      cause: 'controllerAlarm',
      subject: 'probe_3_disconnected',
      value: null,
      limit: null,
      text: 'Temperature probe 3 not connected',
    } as const;
    const fans = { ...probe, subject: 'fan_failure', text: 'Fans 1–2 failed' } as const;
    const stuck = { ...unplugged, cause: 'sensorStuck', subject: 'co2', text: null } as const;
    for (const [t, lang] of [
      [en, 'en'],
      [zh, 'zh'],
    ] as const) {
      for (const alarm of [unplugged, probe, fans, stuck]) {
        for (const text of [alarmText(t, lang, alarm), alarmConcern(alarm, lang)])
          expect(text).not.toMatch(/notConnected|probe_3|_disconnected|fan_failure|\bco2\b/);
      }
    }
    expect(alarmText(en, 'en', unplugged)).toMatch(/^Sensor fault: .*\(Not connected\)$/);
    expect(alarmText(zh, 'zh', unplugged)).toMatch(/（未接入）$/);
    expect(alarmConcern(probe, 'zh')).toBe('温度探头 3 未接入');
    expect(alarmConcern(probe, 'en')).toBe('Temperature probe 3 not connected');
    expect(alarmConcern(fans, 'zh')).toBe('风机故障');
    // An alarm input's content is what a person typed: it is shown as it is.
    const input = { ...probe, cause: 'diInput', subject: 'di_1', text: 'Door open' } as const;
    expect(alarmConcern(input, 'zh')).toBe('Door open');
  });

  it('counts the birds alive as each language does: the whole number in en, in 万 in zh', () => {
    expect(en('houses.home.alive')).not.toMatch(/10K/);
    expect(aliveText('en', 128_450)).toBe('128,450');
    expect(zh('houses.home.alive')).toBe('存栏（万只）');
    expect(aliveText('zh', 128_450)).toBe('12.85');
  });
});
