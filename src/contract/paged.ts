import { z } from 'zod';

/**
 * The `{ rows, total }` every paged list answers: `rows` is one page, `total` counts every row
 * the filters match. One schema, so the server's lists and the console's parsers cannot drift.
 */
export const pagedSchema = <T extends z.ZodType>(row: T) =>
  z.object({ rows: z.array(row), total: z.number().int().nonnegative() });

/** One page of a list and how many rows there are in all. */
export interface Paged<T> {
  rows: T[];
  total: number;
}
