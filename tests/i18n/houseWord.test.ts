import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { zh } from '../../src/i18n/zh';

type Tree = { readonly [key: string]: string | Tree };

function texts(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : texts(value, `${prefix}${key}.`),
  );
}

/**
 * A house is 栏舍 in Chinese, always: 栋舍, 鸡舍, 棚 or a bare 舍 beside it read as different
 * things to a farmer scanning a menu (the console mixed 栋舍 and 栏舍 until now).
 */
const OTHER_WORD = /鸡舍|栋舍|禽舍|畜舍|大棚|棚|(?<!栏)舍/;

/** The zh texts outside src/i18n that people read: metric labels, the log's, the server's. */
const ZH_SOURCES = ['src/contract', 'server/http', 'server/http/messages'];

function zhLiterals(dir: string): Array<[string, string]> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => {
      const file = path.join(dir, f);
      const source = readFileSync(file, 'utf8');
      return [...source.matchAll(/zh:\s*'([^']*)'/g)].map(
        (m) => [file, m[1] ?? ''] as [string, string],
      );
    });
}

describe('the Chinese word for a house', () => {
  it('is 栏舍 in every console text', () => {
    const other = texts(zh as Tree).filter(([, text]) => OTHER_WORD.test(text));
    expect(other).toEqual([]);
  });

  it('is 栏舍 in the metric catalogue, the operation log and the server messages', () => {
    const other = ZH_SOURCES.flatMap(zhLiterals).filter(([, text]) => OTHER_WORD.test(text));
    expect(other).toEqual([]);
  });

  it('would catch the words the console used to mix', () => {
    for (const text of ['栋舍总览', '1 号鸡舍', '舍内温度', '空舍', '大棚']) {
      expect(OTHER_WORD.test(text), text).toBe(true);
    }
    expect(OTHER_WORD.test('栏舍总览')).toBe(false);
  });
});
