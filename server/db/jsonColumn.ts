/** A json/jsonb column's value: PGlite answers some as text, pg always as parsed JSON. */
export const parseJson = <T>(v: T | string): T =>
  typeof v === 'string' ? (JSON.parse(v) as T) : v;
