import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  FUNCTION_KEYS,
  FUNCTION_LABELS,
  OPERATION_KEYS,
  OPERATION_TEXTS,
  functionKeysMatching,
  functionLabel,
  renderOperation,
} from '../../src/contract/operationLog';

const SERVER = fileURLToPath(new URL('../../server', import.meta.url));

/** Every function key written in the server's source (`function: 'x.y'`, `fn: 'x.y'`, log(...)). */
function writtenFunctions(): string[] {
  const files = readdirSync(SERVER, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.startsWith('db/'),
  );
  const found = new Set<string>();
  for (const file of files) {
    const source = readFileSync(join(SERVER, file), 'utf8');
    for (const [, key] of source.matchAll(/\b(?:function|fn): '([\w.]+)'/g)) found.add(key!);
    for (const [, key] of source.matchAll(/'((?:alarm|alarmInput|alarmPhone)\.\w+)'/g))
      found.add(key!);
  }
  return [...found].sort();
}

describe('the operation log texts', () => {
  it('has English and Chinese for every function and operation key', () => {
    for (const key of FUNCTION_KEYS) {
      expect(FUNCTION_LABELS[key].en, key).toBeTruthy();
      expect(FUNCTION_LABELS[key].zh, key).toBeTruthy();
      expect(functionLabel(key, 'zh')).not.toBe(functionLabel(key, 'en'));
    }
    for (const key of OPERATION_KEYS) {
      expect(OPERATION_TEXTS[key].en, key).toBeTruthy();
      expect(OPERATION_TEXTS[key].zh, key).toBeTruthy();
    }
    expect(OPERATION_KEYS.length).toBeGreaterThan(40);
  });

  it('knows every function the server writes', () => {
    const unknown = writtenFunctions().filter((k) => !(FUNCTION_KEYS as string[]).includes(k));
    expect(unknown).toEqual([]);
  });

  it('renders operations with their parameters in both languages', () => {
    expect(renderOperation('updateFarm', {}, 'zh')).toBe('编辑场区');
    expect(renderOperation('updateFarm', {}, 'en')).toBe('Edit farm');
    expect(renderOperation('deleteUser', {}, 'en-US')).toBe('Delete user');
    const alarm = { cause: 'temperatureHigh', metric: 'temperature', id: 12 };
    expect(renderOperation('alarm', alarm, 'zh')).toBe('温度过高 · 栏舍内温度 #12');
    expect(renderOperation('alarm', alarm, 'en')).toMatch(/^Temperature too high · .+ #12$/);
    expect(renderOperation('alarm', { cause: 'gatewayOffline', id: 7 }, 'zh')).toBe('网关离线 #7');
    expect(renderOperation('alarmInput', { code: '2', id: 5 }, 'zh')).toBe('DI 2 #5');
    expect(renderOperation('alarmPhone', { phone: '13800138000', id: 3 }, 'en')).toBe(
      '13800138000 #3',
    );
    // A row whose value is not an object of settings (an older build's) reads as recorded.
    expect(renderOperation('alarmLimits', { value: 'as recorded' }, 'zh')).toBe('as recorded');
    expect(renderOperation('text', { text: 'as recorded' }, 'zh')).toBe('as recorded');
    // A key this build does not know reads as recorded rather than failing.
    expect(renderOperation('somethingNew', {}, 'zh')).toBe('somethingNew');
  });

  it('names devices, controller codes and roles in the reader’s language, never by their code', () => {
    const fan = { cause: 'deviceError', metric: 'fan_1', id: 4 };
    expect(renderOperation('alarm', fan, 'en')).toBe('Device error · Fan 1 #4');
    expect(renderOperation('alarm', fan, 'zh')).toBe('设备故障 · 风机 1 #4');
    const probe = { cause: 'controllerAlarm', metric: 'probe_3_disconnected', id: 5 };
    expect(renderOperation('alarm', probe, 'zh')).toBe('控制器报警 · 温度探头 3 未接入 #5');
    const fans = { cause: 'controllerAlarm', metric: 'fan_failure', id: 6 };
    expect(renderOperation('alarm', fans, 'en')).toBe('Controller alarm · Fan failure #6');
    expect(renderOperation('createUser', { role: 'shack_manager' }, 'en')).toBe(
      'Add user · House manager',
    );
    expect(renderOperation('updateUser', { role: 'farm_manager' }, 'zh')).toBe(
      '编辑用户 · 场区管理员',
    );
  });

  it('says saved settings in words with their units, and what they were before', () => {
    const command = '8f0c2d1e-0000-4000-8000-000000000000';
    const sent = {
      command,
      values: JSON.stringify({ alarm_temp_high: 33, light_hours: 16 }),
      before: JSON.stringify({ alarm_temp_high: 35, light_hours: 16 }),
    };
    expect(renderOperation('configCommand', sent, 'en')).toBe(
      'High temperature 35 ℃ → 33 ℃; Light hours a day 16 h #8f0c2d1e',
    );
    expect(renderOperation('configCommand', sent, 'zh')).toBe(
      '高温报警 35 ℃ → 33 ℃；每日光照时长 16 h #8f0c2d1e',
    );
    const limits = {
      value: JSON.stringify({ followController: true, co2Max: 3000, humidityMax: 80 }),
      before: JSON.stringify({ co2Max: 2500 }),
    };
    expect(renderOperation('alarmLimits', limits, 'en')).toBe(
      'Follow the controller’s alarm limits on; CO₂ maximum 2500 ppm → 3000 ppm; Humidity maximum 80 %',
    );
    expect(renderOperation('alarmLimits', limits, 'zh')).toBe(
      '采用控制器的报警限值 开；二氧化碳上限 2500 ppm → 3000 ppm；湿度上限 80 %',
    );
    const warnings = {
      value: JSON.stringify({ waterDrop: false, feedBinHours: 12 }),
      before: JSON.stringify({ waterDrop: true, feedBinHours: 12 }),
    };
    expect(renderOperation('warningLimits', warnings, 'en')).toBe(
      'Water drop warning on → off; Feed bin empty within 12 h',
    );
    expect(renderOperation('warningLimits', warnings, 'zh')).toBe(
      '饮水下降预警 开 → 关；料塔预计排空 12 h',
    );
    // Rows written before the log kept what a setting was: the new values alone.
    expect(renderOperation('alarmLimits', { value: '{"nh3Max":25}' }, 'en')).toBe(
      'NH₃ maximum 25 ppm',
    );
    // A key this build has no words for is called a setting, with its key.
    expect(renderOperation('configCommand', { command, values: '{"x_new":1}' }, 'zh')).toBe(
      '参数“x_new” 1 #8f0c2d1e',
    );
  });

  it('says a controller alarm code it does not know is one, never the bare code', () => {
    const odd = { cause: 'controllerAlarm', metric: 'err_17', id: 9 };
    expect(renderOperation('alarm', odd, 'en')).toBe(
      'Controller alarm · Controller code “err_17” (not in Roost’s list) #9',
    );
    expect(renderOperation('alarm', odd, 'zh')).toBe(
      '控制器报警 · 控制器代码“err_17”（Roost 未收录） #9',
    );
  });

  it('labels functions by key, and finds keys from a label typed in either language', () => {
    expect(functionLabel('farm.update', 'zh')).toBe('编辑养殖场');
    expect(functionLabel('farm.update', 'en')).toBe('Edit farm');
    expect(functionLabel('custom.thing', 'zh')).toBe('custom.thing');
    expect(functionKeysMatching('养殖场', 'zh')).toEqual([
      'farm.create',
      'farm.update',
      'farm.delete',
    ]);
    expect(functionKeysMatching('edit FARM', 'en')).toEqual(['farm.update']);
    expect(functionKeysMatching('gateway.rot', 'zh')).toEqual(['gateway.rotateToken']);
  });
});
