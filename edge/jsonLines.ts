/**
 * A JSON reader that remembers the line each value starts on, so a config or profile that
 * fails its schema is refused with "line N" as well as the path: the person fixing it edits a
 * file, not a tree. JSON.parse keeps no positions, hence this small reader of its own.
 */
export type JsonPath = ReadonlyArray<string | number>;

export interface LocatedJson {
  value: unknown;
  /** The line (1-based) a path's value starts on; the nearest parent's line when absent. */
  lineOf(path: JsonPath): number;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

const key = (path: JsonPath) => JSON.stringify(path);

export function parseJsonWithLines(text: string): LocatedJson {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(what, line);
  };
  const space = () => {
    while (i < text.length) {
      const c = text[i]!;
      if (c === '\n') line += 1;
      else if (c !== ' ' && c !== '\t' && c !== '\r') return;
      i += 1;
    }
  };
  const literal = (word: string, value: unknown) => {
    if (text.slice(i, i + word.length) !== word) fail(`unexpected "${text[i] ?? 'end of file'}"`);
    i += word.length;
    return value;
  };
  const string = (): string => {
    const start = i;
    i += 1;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i += 1;
      if (text[i] === '\n') fail('a line break inside a string');
      i += 1;
    }
    if (i >= text.length) fail('a string that never ends');
    i += 1;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail('a malformed string');
    }
  };
  const value = (path: JsonPath): unknown => {
    space();
    lines.set(key(path), line);
    const c = text[i];
    if (c === '{') {
      i += 1;
      const out: Record<string, unknown> = {};
      space();
      if (text[i] === '}') {
        i += 1;
        return out;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail('expected a quoted name');
        const name = string();
        space();
        if (text[i] !== ':') fail(`expected ":" after "${name}"`);
        i += 1;
        out[name] = value([...path, name]);
        space();
        if (text[i] === ',') i += 1;
        else if (text[i] === '}') {
          i += 1;
          return out;
        } else fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i += 1;
      const out: unknown[] = [];
      space();
      if (text[i] === ']') {
        i += 1;
        return out;
      }
      for (;;) {
        out.push(value([...path, out.length]));
        space();
        if (text[i] === ',') i += 1;
        else if (text[i] === ']') {
          i += 1;
          return out;
        } else fail('expected "," or "]"');
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 40));
    if (!number) return fail(`unexpected "${c ?? 'end of file'}"`);
    i += number[0].length;
    return Number(number[0]);
  };
  const parsed = value([]);
  space();
  if (i < text.length) fail('more text after the end');
  return {
    value: parsed,
    lineOf(path) {
      for (let n = path.length; n >= 0; n -= 1) {
        const found = lines.get(key(path.slice(0, n)));
        if (found !== undefined) return found;
      }
      return 1;
    },
  };
}
