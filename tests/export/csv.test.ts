import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../../server/export/csv';

/** The file as text without its byte-order mark, split into lines (the last CRLF dropped). */
function linesOf(file: Buffer): string[] {
  const text = file.toString('utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  return text.slice(1, -2).split('\r\n');
}

describe('the one CSV writer', () => {
  it('quotes only what needs it, doubling quotes inside (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12.5)).toBe('12.5');
  });

  it('quotes every cell when asked, the empty one too', () => {
    expect(csvCell('plain', 'always')).toBe('"plain"');
    expect(csvCell(null, 'always')).toBe('""');
    expect(csvCell(3, 'always')).toBe('"3"');
    expect(csvCell('say "hi"', 'always')).toBe('"say ""hi"""');
  });

  it('never hands a spreadsheet a formula, but leaves numbers their sign', () => {
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])
      expect(csvCell(formula, 'always')).toBe(`"'${formula}"`);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell(-3.5)).toBe('-3.5');
    // A minus inside the text starts nothing.
    expect(csvCell('a-b')).toBe('a-b');
  });

  it('writes a UTF-8 file with a byte-order mark and CRLF lines that Chinese survives', () => {
    const file = toCsv(
      ['鸡舍', 'Value'],
      [
        ['一号舍', 1],
        ['b', null],
      ],
    );
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(linesOf(file)).toEqual(['鸡舍,Value', '一号舍,1', 'b,']);
    expect(linesOf(toCsv(['h'], [['x']], 'always'))).toEqual(['"h"', '"x"']);
  });

  it('writes a header alone when there are no rows', () => {
    expect(linesOf(toCsv(['a', 'b'], []))).toEqual(['a,b']);
  });
});
