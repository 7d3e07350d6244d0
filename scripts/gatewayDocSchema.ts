import { z } from 'zod';

/**
 * A payload's fields as rows of a Markdown table, read from the JSON Schema zod derives from the
 * contract's schema: the table cannot say what the server does not check.
 */

interface JsonSchema {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export interface FieldRow {
  field: string;
  type: string;
  required: boolean;
  limits: string;
  description: string;
}

/** zod writes the largest safe integer as the bound of every integer: no limit a reader needs. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

function typeOf(schema: JsonSchema): string {
  if (schema.anyOf) {
    const consts = schema.anyOf.every((s) => s.const !== undefined);
    if (consts) return schema.anyOf.map((s) => JSON.stringify(s.const)).join(' | ');
    return schema.anyOf.map(typeOf).join(' or ');
  }
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === 'string' && schema.format === 'date-time') return 'string (ISO 8601 time)';
  if (schema.type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`;
  if (schema.type === 'object' && schema.additionalProperties && !schema.properties) {
    const value =
      typeof schema.additionalProperties === 'object' ? typeOf(schema.additionalProperties) : 'any';
    return `object (key → ${value})`;
  }
  return schema.type ?? 'any';
}

function limitsOf(schema: JsonSchema): string[] {
  const limits: string[] = [];
  if (schema.anyOf) {
    for (const option of schema.anyOf) limits.push(...limitsOf(option));
    return limits;
  }
  if (schema.minimum !== undefined && schema.minimum !== -UNBOUNDED)
    limits.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) limits.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined && schema.maximum !== UNBOUNDED)
    limits.push(`≤ ${schema.maximum}`);
  if (schema.exclusiveMaximum !== undefined) limits.push(`< ${schema.exclusiveMaximum}`);
  const { minLength, maxLength } = schema;
  if (minLength && maxLength !== undefined) limits.push(`${minLength} to ${maxLength} characters`);
  else if (minLength) limits.push(`at least ${minLength} characters`);
  else if (maxLength !== undefined) limits.push(`at most ${maxLength} characters`);
  if (schema.minItems !== undefined && schema.minItems > 0)
    limits.push(`at least ${schema.minItems} items`);
  if (schema.maxItems !== undefined) limits.push(`at most ${schema.maxItems} items`);
  if (schema.type === 'array' && schema.items) {
    const each = limitsOf(schema.items);
    if (each.length > 0) limits.push(`each ${each.join(', ')}`);
  }
  if (schema.type === 'object' && schema.propertyNames) {
    const keys = limitsOf(schema.propertyNames);
    if (keys.length > 0) limits.push(`keys ${keys.join(', ')}`);
  }
  if (
    schema.type === 'object' &&
    typeof schema.additionalProperties === 'object' &&
    !schema.additionalProperties.properties
  ) {
    const values = limitsOf(schema.additionalProperties);
    if (values.length > 0) limits.push(`values ${values.join(', ')}`);
  }
  return limits;
}

/** Markdown table cells: a pipe would end the cell, a line break the row. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function rowsOf(schema: JsonSchema, prefix: string, rows: FieldRow[]): void {
  const required = new Set(schema.required ?? []);
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    rows.push({
      field: path,
      type: typeOf(field),
      required: required.has(name),
      limits: limitsOf(field).join(', '),
      description: field.description ?? '',
    });
    if (field.properties) rowsOf(field, `${path}.`, rows);
    const value = field.additionalProperties;
    if (typeof value === 'object' && value.properties) rowsOf(value, `${path}.<key>.`, rows);
  }
}

/** The fields of a payload schema, nested ones as `a.b` and a record's values as `a.<key>.b`. */
export function fieldRows(schema: z.ZodType): FieldRow[] {
  // The input side: what a gateway writes (an ISO time the server turns into a number).
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const rows: FieldRow[] = [];
  rowsOf(json, '', rows);
  return rows;
}

export function fieldTable(schema: z.ZodType): string {
  const lines = [
    '| field | type | required | limits | meaning |',
    '| --- | --- | --- | --- | --- |',
    ...fieldRows(schema).map(
      (r) =>
        `| \`${r.field}\` | ${cell(r.type)} | ${r.required ? 'yes' : 'no'} | ${cell(r.limits)} | ${cell(r.description)} |`,
    ),
  ];
  return lines.join('\n');
}
