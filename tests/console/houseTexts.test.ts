import { describe, expect, it } from 'vitest';
import { RUN_MODES } from '../../src/contract/domain';
import { alarmText, modeText } from '../../src/console/houses/format';
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
});
