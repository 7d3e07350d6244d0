import { describe, expect, it } from 'vitest';
import { emptyDraft, inputOf, parsePaste, pasteInto } from '../../src/stores/productionGrid';

describe('the day grid: typed and pasted cells', () => {
  it('a spreadsheet block spreads from the cell it is pasted into, row by row and across', () => {
    const block = parsePaste('3\t1\t0\t0\t1750\r\n2\t2\t1\t0\t1700\r\n');
    expect(block).toEqual([
      ['3', '1', '0', '0', '1750'],
      ['2', '2', '1', '0', '1700'],
    ]);
    const drafts = pasteInto([emptyDraft(), emptyDraft(), emptyDraft()], 1, 0, block);
    expect(drafts[0]!.deathsAm).toBe('');
    expect(drafts[1]).toMatchObject({ deathsAm: '3', cullsAm: '0', feedKg: '1750' });
    expect(drafts[2]).toMatchObject({ deathsAm: '2', deathsPm: '2', feedKg: '1700' });
    // Rows past the last house are dropped, not an error.
    expect(pasteInto([emptyDraft()], 0, 0, block)).toHaveLength(1);
  });

  it('an empty required cell and a negative or fractional count are refused before sending', () => {
    const draft = { ...emptyDraft(), deathsAm: '2', deathsPm: '1.5', cullsAm: '-1', cullsPm: '0' };
    const { input, errors } = inputOf(draft, 7, '2026-03-01');
    expect(input).toBeNull();
    expect(errors).toEqual({ deathsPm: 'invalid', cullsAm: 'invalid', feedKg: 'required' });
    const ok = inputOf(
      { ...draft, deathsPm: '1', cullsAm: '0', feedKg: '1 200'.replace(' ', ''), waterL: '2400,5' },
      7,
      '2026-03-01',
    );
    expect(ok.input).toMatchObject({ houseId: 7, feedKg: 1200, waterL: 2400.5, eggs: null });
  });
});
