import { z } from 'zod';

/**
 * The largest id the database holds (its `integer` columns). A larger number in a query or a
 * body is not a missing row but bad input: refused at the edge with a 400, never sent to the
 * database, which would fail with "out of range".
 */
export const ID_MAX = 2_147_483_647;

/** A row id in a query string, path or form field (text coerced to a number). */
export const idSchema = z.coerce.number().int().positive().max(ID_MAX);

/** A row id in a JSON body (a number, not text). */
export const jsonIdSchema = z.number().int().positive().max(ID_MAX);

/** Pages of a list: far beyond any real list, and small enough for the database's offset. */
export const PAGE_MAX = 1_000_000;
