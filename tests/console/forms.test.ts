import { describe, expect, it } from 'vitest';
import { orgInputSchema } from '../../src/contract/admin';
import { alarmInputInputSchema } from '../../src/contract/alarms';
import {
  concentratorInputSchema,
  maintenancePlanInputSchema,
  terminalInputSchema,
} from '../../src/contract/devices';
import { createI18n } from '../../src/i18n';
import { issueKey } from '../../src/console/forms/useSchemaForm';

/** Each problem's message as the console's forms get it: path → message key. */
function problems(schema: { safeParse(v: unknown, o: object): unknown }, value: unknown) {
  const result = schema.safeParse(value, { error: issueKey }) as {
    success: boolean;
    error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
  };
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('the console forms read the contract schemas', () => {
  it("keeps a schema's own message and gives zod's English ones a forms.error key", () => {
    expect(
      problems(orgInputSchema, { name: ' ', code: '', email: 'not-an-address', mapType: '1' }),
    ).toEqual({
      name: 'admin.nameRequired',
      code: 'admin.codeRequired',
      email: 'admin.emailInvalid',
    });
    expect(
      problems(concentratorInputSchema, {
        houseId: 1,
        type: 'controller',
        code: '',
        name: 'x'.repeat(61),
      }),
    ).toEqual({ code: 'forms.error.required', name: 'forms.error.tooLong' });
    expect(
      problems(alarmInputInputSchema, {
        gatewayId: 0,
        diCode: 'DI1',
        content: 'Door',
        horn: true,
        shieldTest: false,
        relayType: 'normallyOpen',
        important: false,
      }),
    ).toEqual({ gatewayId: 'forms.error.invalid' });
    expect(
      problems(maintenancePlanInputSchema, {
        houseId: 1,
        deviceId: null,
        type: 'duration',
        content: 'Belt',
        plannedDate: null,
        interval: null,
      }),
    ).toEqual({ interval: 'devices.intervalRequired', deviceId: 'devices.deviceRequired' });
    expect(
      problems(terminalInputSchema, {
        houseId: 1,
        name: 'Fan',
        code: 'F1',
        controlPort: 'Fan 1',
        type: 'fan',
        extras: [
          { code: 'dust', name: 'Dust', unit: '', min: 5, max: 5 },
          { code: 'dust', name: 'Dust', unit: '', min: 0, max: null },
        ],
      }),
    ).toEqual({
      controlPort: 'devices.badPort',
      'extras.0.max': 'devices.badRange',
      'extras.1.max': 'forms.error.required',
    });
  });

  it('has a text in both languages for every message those forms can show', () => {
    const keys = [
      'admin.nameRequired',
      'admin.codeRequired',
      'admin.emailInvalid',
      'forms.error.required',
      'forms.error.tooLong',
      'forms.error.invalid',
      // The devices' and alarm phones' schemas' own messages (src/contract/devices.ts, cameras.ts, alarms.ts).
      'devices.badCode',
      'devices.badRange',
      'devices.badPort',
      'devices.duplicateCode',
      'devices.intervalRequired',
      'devices.deviceRequired',
      'devices.dateRequired',
      'devices.badStreamUrl',
      'alarms.badPhone',
      'alarms.badTime',
    ];
    for (const language of ['en', 'zh'] as const) {
      const i18n = createI18n(language);
      for (const key of keys) expect(i18n.exists(key), `${language} ${key}`).toBe(true);
    }
    expect(createI18n('zh').t('admin.codeRequired')).toBe('请输入编码。');
  });
});
