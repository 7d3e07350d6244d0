import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operationLabel } from '../../src/i18n/logText';
import { FARM_LEVELS } from '../../src/contract/domain';
import { createI18n } from '../../src/i18n';

const SERVER = fileURLToPath(new URL('../../server', import.meta.url));

/** Every fixed operation text the server writes to the operation log, read from its source. */
function recordedOperations(): string[] {
  // The schema's column definition (`operation: text('operation')`) is not a record.
  const files = readdirSync(SERVER, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.startsWith('db/'),
  );
  const found = new Set<string>();
  for (const file of files) {
    for (const [, expression] of readFileSync(join(SERVER, file), 'utf8').matchAll(
      /\boperation: ([^\n]+)/g,
    )) {
      for (const [, text] of expression!.matchAll(/'([^']+)'/g)) found.add(text!);
      // `create ${input.level}`: one text per farm level.
      for (const [, verb] of expression!.matchAll(/`(\w+) \$\{[\w.]+\.level\}`/g))
        for (const level of FARM_LEVELS) found.add(`${verb} ${level}`);
    }
  }
  return [...found].sort();
}

describe('the operation column of the operation log', () => {
  it('has both languages for every fixed operation the server records', () => {
    const operations = recordedOperations();
    expect(operations.length).toBeGreaterThan(30);
    for (const language of ['en', 'zh'] as const) {
      const i18n = createI18n(language);
      const untranslated = operations.filter((op) => operationLabel(i18n, op) === op);
      expect({ language, untranslated }).toEqual({ language, untranslated: [] });
    }
  });

  it('reads in Chinese: fixed texts, an alarm by its cause and metric, other records as they are', () => {
    const zh = createI18n('zh');
    expect(operationLabel(zh, 'update farm')).toBe('编辑场区');
    expect(operationLabel(zh, 'temperatureHigh temperature #12')).toBe('温度过高 · 舍内温度 #12');
    expect(operationLabel(zh, 'gatewayOffline #7')).toBe('网关离线 #7');
    expect(operationLabel(zh, '13800138000 #3')).toBe('13800138000 #3');
    expect(operationLabel(zh, 'DI 2 #5')).toBe('DI 2 #5');
    expect(operationLabel(createI18n('en'), 'delete user')).toBe('Delete user');
  });
});
