/**
 * Reading the server's OpenAPI document (GET /api/openapi.json) for the API reference page:
 * its operations grouped by area, and each request and answer schema flattened into the rows a
 * person reads (a field, its type, whether it is required, what it means).
 */
type Json = Record<string, unknown>;

export interface ApiField {
  /** Dotted path: `rows[].houseId`. */
  name: string;
  type: string;
  required: boolean;
  description: string;
  /** Allowed values and bounds, written out: `ok | down`, `1–100`. */
  limits: string;
}

export interface ApiOperation {
  id: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
  /** Null: open to anyone (sign-in, health). */
  roles: readonly string[] | null;
  operating: boolean;
  parameters: ApiField[];
  body: ApiField[];
  /** The `data` of the answer's envelope; empty for `null`. */
  answer: ApiField[];
  /** Media types of a file answer (a CSV, a workbook, a stream); empty for JSON. */
  files: string[];
}

export interface ApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, Json> };
}

const MAX_DEPTH = 6;

export function operationsOf(document: ApiDocument): ApiOperation[] {
  const components = document.components?.schemas ?? {};
  const operations: ApiOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const security = op['security'] as unknown[] | undefined;
      const parameters = ((op['parameters'] as Json[] | undefined) ?? []).map((p) =>
        fieldOf(
          `${String(p['name'])}`,
          (p['schema'] as Json) ?? {},
          p['required'] === true,
          components,
          typeof p['description'] === 'string' ? p['description'] : '',
        ),
      );
      const bodyContent = (op['requestBody'] as Json | undefined)?.['content'] as
        Record<string, Json> | undefined;
      const bodySchema = bodyContent?.['application/json']?.['schema'] as Json | undefined;
      const ok = (op['responses'] as Record<string, Json> | undefined)?.['200'];
      const okContent = (ok?.['content'] as Record<string, Json> | undefined) ?? {};
      const jsonAnswer = okContent['application/json']?.['schema'] as Json | undefined;
      const files = Object.keys(okContent).filter(
        (type) => type !== 'application/json' || !jsonAnswer?.['properties'],
      );
      const data = jsonAnswer
        ? ((resolve(jsonAnswer, components)['properties'] as Json | undefined)?.['data'] as
            Json | undefined)
        : undefined;
      operations.push({
        id: `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        tag: ((op['tags'] as string[] | undefined) ?? ['api'])[0] ?? 'api',
        summary: typeof op['summary'] === 'string' ? op['summary'] : '',
        roles: security && security.length === 0 ? null : ((op['x-roles'] as string[]) ?? []),
        operating: op['x-operating'] === true,
        parameters,
        body: bodySchema ? fieldsOf(bodySchema, components) : [],
        answer: data ? fieldsOf(data, components) : [],
        files: data ? [] : files,
      });
    }
  }
  return operations.sort((a, b) => a.tag.localeCompare(b.tag) || a.path.localeCompare(b.path));
}

/** Operations whose path, summary or method contain the words typed (case ignored). */
export function matching(operations: readonly ApiOperation[], text: string): ApiOperation[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...operations];
  return operations.filter((op) => {
    const hay = `${op.method} ${op.path} ${op.summary} ${op.tag}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** An object's fields, one row each, nested objects and arrays of objects flattened. */
export function fieldsOf(schema: Json, components: Record<string, Json>): ApiField[] {
  const rows: ApiField[] = [];
  walk(schema, '', true, 0, new Set(), components, rows);
  return rows;
}

function walk(
  raw: Json,
  name: string,
  required: boolean,
  depth: number,
  seen: Set<Json>,
  components: Record<string, Json>,
  rows: ApiField[],
): void {
  const schema = resolve(raw, components);
  const object = objectOf(schema, components);
  if (object && depth < MAX_DEPTH && !seen.has(object)) {
    if (name) rows.push(fieldOf(name, schema, required, components));
    const inner = new Set(seen).add(object);
    const needed = new Set((object['required'] as string[] | undefined) ?? []);
    for (const [key, value] of Object.entries((object['properties'] as Json) ?? {}))
      walk(
        value as Json,
        name ? `${name}.${key}` : key,
        needed.has(key),
        depth + 1,
        inner,
        components,
        rows,
      );
    return;
  }
  const items = schema['items'] as Json | undefined;
  if (schema['type'] === 'array' && items && objectOf(resolve(items, components), components)) {
    rows.push(fieldOf(name || '[]', schema, required, components));
    walk(items, `${name}[]`, true, depth + 1, seen, components, rows);
    return;
  }
  if (name) rows.push(fieldOf(name, schema, required, components));
}

/** The object a schema stands for: itself, or the object among `anyOf` (an object or null). */
function objectOf(schema: Json, components: Record<string, Json>): Json | null {
  if (schema['properties']) return schema;
  for (const part of (schema['anyOf'] ?? schema['allOf'] ?? []) as Json[]) {
    const resolved = resolve(part, components);
    if (resolved['properties']) return resolved;
  }
  return null;
}

function resolve(schema: Json, components: Record<string, Json>): Json {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  return components[ref.replace('#/components/schemas/', '')] ?? {};
}

function fieldOf(
  name: string,
  raw: Json,
  required: boolean,
  components: Record<string, Json>,
  description = '',
): ApiField {
  const schema = resolve(raw, components);
  return {
    name,
    type: typeOf(schema, components),
    required,
    description:
      description || (typeof schema['description'] === 'string' ? schema['description'] : ''),
    limits: limitsOf(schema),
  };
}

/** `integer`, `string (date-time)`, `number | null`, `string[]` … */
export function typeOf(schema: Json, components: Record<string, Json>, depth = 0): string {
  if (depth > 3) return 'object';
  const s = resolve(schema, components);
  if ('const' in s) return JSON.stringify(s['const']);
  const parts = (s['anyOf'] ?? s['oneOf']) as Json[] | undefined;
  if (parts) return [...new Set(parts.map((p) => typeOf(p, components, depth + 1)))].join(' | ');
  const type = s['type'];
  if (Array.isArray(type)) return type.join(' | ');
  if (type === 'array') {
    const items = s['items'] as Json | undefined;
    return `${items ? typeOf(items, components, depth + 1) : 'any'}[]`;
  }
  if (typeof type === 'string') return s['format'] ? `${type} (${String(s['format'])})` : type;
  if (s['enum']) return 'string';
  return s['properties'] ? 'object' : 'any';
}

function limitsOf(schema: Json): string {
  const out: string[] = [];
  const values = schema['enum'] as unknown[] | undefined;
  if (values) out.push(values.map((v) => String(v)).join(' | '));
  // zod writes every integer's safe range as its bounds: that says nothing to a reader.
  const bound = (value: unknown) =>
    typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER ? undefined : value;
  const min = bound(
    schema['minimum'] ?? schema['exclusiveMinimum'] ?? schema['minLength'] ?? schema['minItems'],
  );
  const max = bound(
    schema['maximum'] ?? schema['exclusiveMaximum'] ?? schema['maxLength'] ?? schema['maxItems'],
  );
  if (min !== undefined && min === max) out.push(String(min));
  else if (min !== undefined || max !== undefined)
    out.push(`${min === undefined ? '' : String(min)}–${max === undefined ? '' : String(max)}`);
  if (typeof schema['pattern'] === 'string') out.push(`/${schema['pattern']}/`);
  return out.join(', ');
}
