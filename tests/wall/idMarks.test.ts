import { describe, expect, it } from 'vitest';
import { IdMarks } from '../../src/screens/wall/idMarks';

const marked = (marks: IdMarks) => {
  const ids: number[] = [];
  marks.forEach((id) => ids.push(id));
  return ids;
};

describe('IdMarks', () => {
  it('holds each id once, in the order first marked, and forgets them all on clear', () => {
    const marks = new IdMarks();
    for (const id of [7, 3, 7, 5000, 3, 0]) marks.add(id);
    expect(marked(marks)).toEqual([7, 3, 5000, 0]);
    marks.clear();
    expect(marked(marks)).toEqual([]);
    marks.add(3);
    expect(marked(marks)).toEqual([3]);
  });

  it('marks thousands of ids across updates as a Set would, large and odd ids included', () => {
    const marks = new IdMarks();
    let seed = 1;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let update = 0; update < 5; update += 1) {
      marks.clear();
      const expected = new Set<number>();
      for (let i = 0; i < 6_000; i += 1) {
        const id = random(20) === 0 ? [2 ** 31, -4, 1.5][random(3)]! : random(30_000);
        marks.add(id);
        expected.add(id);
      }
      // Each id once: as many as the Set holds, and the same ones.
      expect(marked(marks)).toHaveLength(expected.size);
      expect(new Set(marked(marks))).toEqual(expected);
    }
  });
});
