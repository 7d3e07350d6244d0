import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { overviewListSchema } from '../../src/contract/overview';
import { pagedSchema } from '../../src/contract/paged';
import { plainOverviewList } from '../../src/contract/plainOverview';
import { paramChangeListSchema } from '../../src/contract/envcontrol';

describe('the one { rows, total } schema', () => {
  const names = pagedSchema(z.string());

  it('takes a page of rows and a whole, non-negative count', () => {
    expect(names.parse({ rows: ['a', 'b'], total: 7 })).toEqual({ rows: ['a', 'b'], total: 7 });
    expect(names.safeParse({ rows: [], total: 0 }).success).toBe(true);
  });

  it('refuses a negative or fractional total, a missing one, and rows of the wrong kind', () => {
    for (const bad of [
      { rows: [], total: -1 },
      { rows: [], total: 1.5 },
      { rows: [] },
      { rows: [1], total: 1 },
    ])
      expect(names.safeParse(bad).success).toBe(false);
  });

  it('is what the overview and the modify records answer too', () => {
    // A list that once had its own `z.number().int()` accepted a negative count.
    expect(overviewListSchema.safeParse({ rows: [], total: -3 }).success).toBe(false);
    expect(paramChangeListSchema.safeParse({ rows: [], total: -3 }).success).toBe(false);
  });

  it('the hand-written overview check refuses what the schema refuses', () => {
    expect(plainOverviewList({ rows: [], total: 2 })).toEqual({ rows: [], total: 2 });
    expect(plainOverviewList({ rows: [], total: -2 })).toBeNull();
  });
});
