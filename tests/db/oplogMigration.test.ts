import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionLabel, renderOperation } from '../../src/contract/operationLog';
import { testDatabaseTargets } from '../helpers/databases';
import { MIGRATIONS, migrationsUpTo, openMigrating, type Migrating } from '../helpers/migrations';

/** The last migration whose operation log held English sentences. */
const BEFORE_KEYS = '0005_raw_telemetry_no_fk';

/** Rows as the code before operation keys wrote them: function name, English operation. */
const OLD_ROWS: Array<[fn: string, operation: string]> = [
  ['login', 'sign in'],
  ['user.modifyPwd', 'change password'],
  ['user.save', 'create user'],
  ['user.save', 'update user'],
  ['user.delete', 'delete user'],
  ['user.resetPwd', 'reset password'],
  ['user.saveUserShacks', 'assign houses'],
  ['org.create', 'create organisation'],
  ['org.update', 'update organisation'],
  ['org.delete', 'delete organisation'],
  ['org.uploadLogo', 'upload logo'],
  ['farm.create', 'create group'],
  ['farm.update', 'update group'],
  ['farm.delete', 'delete group'],
  ['farm.create', 'create company'],
  ['farm.update', 'update company'],
  ['farm.delete', 'delete company'],
  ['farm.create', 'create farm'],
  ['farm.update', 'update farm'],
  ['farm.delete', 'delete farm'],
  ['house.create', 'create house'],
  ['house.update', 'update house'],
  ['house.delete', 'delete house'],
  ['gateway.save', 'create gateway'],
  ['gateway.save', 'update gateway'],
  ['gateway.delete', 'delete gateway'],
  ['gateway.rotateToken', 'rotate device token'],
  ['flock.start', 'start flock'],
  ['flock.close', 'close flock'],
  ['breed.create', 'create breed'],
  ['breed.update', 'update breed'],
  ['breed.delete', 'delete breed'],
  ['breed.copy', 'copy breed'],
  ['breed.saveTargets', 'save per-age targets'],
  ['breed.saveImmune', 'save immune reminders'],
  ['wall.kioskCreate', 'create kiosk link'],
  ['wall.kioskRevoke', 'revoke kiosk link'],
  ['alarm.raise', 'temperatureHigh temperature #12'],
  ['alarm.clear', 'gatewayOffline #7'],
  ['alarmInput.create', 'DI 2 #5'],
  ['alarmPhone.update', '13800138000 #3'],
  ['alarm.limits', '{"temperatureHigh":30}'],
  ['envcontrol.send', 'set target temperature'],
];

type Read = Array<{ function: string; operation: string; params: Record<string, unknown> }>;

describe.each(testDatabaseTargets())('operation log keys migration on $name', (target) => {
  let database: Migrating;
  let oldFolder: string;
  let rows: Read;

  beforeAll(async () => {
    oldFolder = migrationsUpTo(BEFORE_KEYS);
    database = await openMigrating(target.name);
    await database.migrateTo(oldFolder);
    for (const [fn, operation] of OLD_ROWS)
      await database.query(
        `insert into operation_logs (operator_name, function, operation) values ('Old', $1, $2)`,
        [fn, operation],
      );
    await database.migrateTo(MIGRATIONS);
    rows = await database.query<Read[number]>(
      'select function, operation, params from operation_logs order by id',
    );
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    if (oldFolder) rmSync(oldFolder, { recursive: true, force: true });
  });

  const render = (locale: string) =>
    rows.map((r) => renderOperation(r.operation, r.params, locale));

  it('turns every fixed English text into its key, with no parameters', () => {
    const fixed = rows.slice(0, 37);
    expect(fixed.every((r) => /^[a-z][A-Za-z]+$/.test(r.operation) && r.operation !== 'text')).toBe(
      true,
    );
    expect(fixed.every((r) => Object.keys(r.params).length === 0)).toBe(true);
    expect(new Set(fixed.map((r) => r.operation)).size).toBe(37);
    expect(rows.find((r) => r.function === 'gateway.rotateToken')?.operation).toBe(
      'rotateDeviceToken',
    );
    // Function names were keys already: they stay.
    expect(rows.map((r) => r.function)).toEqual(OLD_ROWS.map(([fn]) => fn));
  });

  it('turns the patterns into keys with parameters, and anything else into text', () => {
    expect(rows.slice(37)).toEqual([
      {
        function: 'alarm.raise',
        operation: 'alarm',
        params: { cause: 'temperatureHigh', metric: 'temperature', id: 12 },
      },
      { function: 'alarm.clear', operation: 'alarm', params: { cause: 'gatewayOffline', id: 7 } },
      { function: 'alarmInput.create', operation: 'alarmInput', params: { code: '2', id: 5 } },
      {
        function: 'alarmPhone.update',
        operation: 'alarmPhone',
        params: { phone: '13800138000', id: 3 },
      },
      {
        function: 'alarm.limits',
        operation: 'alarmLimits',
        params: { value: '{"temperatureHigh":30}' },
      },
      {
        function: 'envcontrol.send',
        operation: 'text',
        params: { text: 'set target temperature' },
      },
    ]);
  });

  it('reads back in English as the old texts said, and in Chinese', () => {
    const en = render('en');
    const zh = render('zh');
    expect(en[0]).toBe('Sign in');
    expect(en[18]).toBe('Edit farm');
    expect(zh[18]).toBe('编辑场区');
    expect(zh[26]).toBe('更换设备令牌');
    expect(zh.slice(37)).toEqual([
      '温度过高 · 栏舍内温度 #12',
      '网关离线 #7',
      'DI 2 #5',
      '13800138000 #3',
      // Saved settings read as words; a key no catalogue knows is named as one, never raw JSON.
      '参数“temperatureHigh” 30',
      'set target temperature',
    ]);
    // Every fixed text has a rendering of its own in both languages, never the bare key.
    for (const [i, r] of rows.slice(0, 37).entries()) {
      expect(en[i]).not.toBe(r.operation);
      expect(zh[i]).not.toBe(r.operation);
    }
    expect(functionLabel(rows[18]!.function, 'zh')).toBe('编辑养殖场');
  });
});
