import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en';
import { zh } from '../../src/i18n/zh';
import { createI18n } from '../../src/i18n';

type Tree = { readonly [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('translations', () => {
  const english = flatten(en);
  const chinese = flatten(zh as Tree);

  it('has every English key in Chinese and no Chinese key missing in English', () => {
    // Plural forms are the language's own (English: one and other; Chinese: other only).
    const base = (keys: Iterable<string>) =>
      new Set([...keys].map((key) => key.replace(/_(zero|one|two|few|many|other)$/, '')));
    const [en, zh] = [base(english.keys()), base(chinese.keys())];
    const missingInZh = [...en].filter((key) => !zh.has(key));
    const missingInEn = [...zh].filter((key) => !en.has(key));
    expect({ missingInZh, missingInEn }).toEqual({ missingInZh: [], missingInEn: [] });
  });

  it('writes degrees Celsius one way, as the metric catalogue does (℃), in both languages', () => {
    const otherSpelling = [...english, ...chinese]
      .filter(([, text]) => /°\s?C/.test(text))
      .map(([key]) => key);
    expect(otherSpelling).toEqual([]);
  });

  it('has no empty text in either language', () => {
    const empty = [...english, ...chinese]
      .filter(([, text]) => text.trim() === '')
      .map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('uses the same {{placeholders}} in both languages', () => {
    // An English plural form is compared with the Chinese form of its count (always `_other`).
    const inChinese = (key: string) =>
      chinese.get(key) ?? chinese.get(key.replace(/_(zero|one|two|few|many)$/, '_other')) ?? '';
    const mismatched = [...english.keys()].filter(
      (key) =>
        JSON.stringify(placeholders(english.get(key) ?? '')) !==
        JSON.stringify(placeholders(inChinese(key))),
    );
    expect(mismatched).toEqual([]);
  });

  it('names the product by its given title in both languages', () => {
    expect(en.app.title).toBe('IoT data management platform');
    expect(zh.app.title).toBe('物联网数据管理平台');
  });
});

describe('counts read as each language counts', () => {
  it('says one concentrator and 0 devices in en, 台 in zh', () => {
    const en = createI18n('en').t;
    const zh = createI18n('zh').t;
    expect(en('devices.manage.concentratorCount', { count: 1 })).toBe('1 concentrator');
    expect(en('devices.manage.concentratorCount', { count: 0 })).toBe('0 concentrators');
    expect(en('devices.manage.terminalCount', { count: 1 })).toBe('1 device');
    expect(zh('devices.manage.terminalCount', { count: 1 })).toBe('设备 1 台');
  });
});
