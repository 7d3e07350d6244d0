import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { JsonSyntaxError, parseJsonWithLines } from './jsonLines';

/** A file the edge cannot start with: the message names the file, the line and what is wrong. */
export class EdgeFileError extends Error {}

/** Reads a JSON file and checks it against `schema`; each problem is reported with its line. */
export function loadJsonFile<S extends z.ZodType>(file: string, schema: S): z.infer<S> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new EdgeFileError(`${file}: cannot be read (${(error as Error).message})`);
  }
  let located;
  try {
    located = parseJsonWithLines(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new EdgeFileError(`${file}:${error.message}`);
    throw error;
  }
  const result = schema.safeParse(located.value);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    return `${file}:line ${located.lineOf(path)}: ${path.join('.') || '(top)'}: ${issue.message}`;
  });
  throw new EdgeFileError(problems.join('\n'));
}
