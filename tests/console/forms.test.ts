import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
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
import { userFormSchema } from '../../src/console/system/userForm';

/**
 * Each problem's message as the console's forms get it: path → message key, the first one a
 * path has (the one zodResolver shows at the field).
 */
function problems(schema: { safeParse(v: unknown, o: object): unknown }, value: unknown) {
  const result = schema.safeParse(value, { error: issueKey }) as {
    success: boolean;
    error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
  };
  const found: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) found[issue.path.join('.')] ??= issue.message;
  return found;
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

  it('checks a user as the server does: a new one needs a password under the edition’s rule', () => {
    const user = {
      username: 'keeper.one',
      password: '',
      realName: '',
      email: '',
      roleKey: 'shack_manager',
      canOperate: false,
      remoteConfigFlag: false,
      farmIds: [],
      shackIds: [3],
    };
    expect(problems(userFormSchema('default', true), user)).toEqual({
      password: 'admin.passwordRequired',
    });
    expect(problems(userFormSchema('default', true), { ...user, password: 'abcdef1' })).toEqual({
      password: 'password.complexity',
    });
    expect(problems(userFormSchema('default', true), { ...user, password: 'Abcdef1' })).toEqual({});
    expect(problems(userFormSchema('lihua', true), { ...user, password: 'Abcdef1' })).toEqual({
      password: 'password.complexity',
    });
    // An edit shows no password field: its '' is fine (and is not sent).
    expect(problems(userFormSchema('default', false), user)).toEqual({});
    expect(
      problems(userFormSchema('default', false), {
        ...user,
        username: 'two words',
        email: 'nowhere',
        roleKey: 'king',
      }),
    ).toEqual({
      username: 'admin.usernameInvalid',
      email: 'admin.emailInvalid',
      roleKey: 'admin.roleInvalid',
    });
    expect(problems(userFormSchema('default', false), { ...user, username: ' ' })).toEqual({
      username: 'admin.usernameRequired',
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
      // The user form's (src/contract/admin.ts, src/console/system/userForm.ts) and the
      // change password form's (src/console/password/passwordForm.ts).
      'admin.usernameRequired',
      'admin.usernameInvalid',
      'admin.roleInvalid',
      'admin.passwordRequired',
      'password.oldRequired',
      'password.required',
      'password.complexity',
      'password.confirmRequired',
      'password.notSame',
    ];
    for (const language of ['en', 'zh'] as const) {
      const i18n = createI18n(language);
      for (const key of keys) expect(i18n.exists(key), `${language} ${key}`).toBe(true);
    }
    expect(createI18n('zh').t('admin.codeRequired')).toBe('请输入编码。');
    expect(createI18n('zh').t('admin.usernameInvalid')).toBe(
      '登录名只能包含字母、数字和 . _ @ -。',
    );
  });
});

/** The components a module exports by name (`export function X`, `export const X`). */
function componentsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^export (?:function|const|class) ([A-Z]\w*)/gm)].map((m) => m[1]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the forms’ parts have one home', () => {
  it('exports each field and input of src/console/forms from there alone', () => {
    // Two components of one name (a form's DateField wrapping a page's DateField) were two
    // shapes of one thing; a second one would be a copy.
    const forms = join('src', 'console', 'forms');
    const own = new Set(sourceFiles(forms).flatMap(componentsOf));
    expect([...own]).toEqual(expect.arrayContaining(['DateField', 'TimeField', 'TextField']));
    const elsewhere = sourceFiles('src')
      .filter((file) => !file.startsWith(forms))
      .flatMap((file) =>
        componentsOf(file)
          .filter((name) => own.has(name))
          .map((name) => `${file}: ${name}`),
      );
    expect(elsewhere).toEqual([]);
  });
});
