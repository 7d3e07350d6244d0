import { z } from 'zod';
import type { RegisteredRoute } from '../app';
import { mediaTypesOf, type RouteSchema } from '../http/routeSchema';

/**
 * The API described for integrators (an ERP, a feed mill, a BI tool): an OpenAPI 3.1 document
 * made from the routes' own options, so it cannot say something the server does not do. Each
 * schema is the contract's zod schema written as JSON Schema 2020-12, which OpenAPI 3.1 takes
 * as it is.
 */
type JsonSchema = Record<string, unknown>;

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  'x-roles'?: readonly string[];
  'x-operating'?: boolean;
}

const REFUSAL = {
  description:
    'Refused: `code` is the HTTP status and `msg` says why in the language of the `Locale` or `Accept-Language` header (`en` or `zh`)',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Refusal' } } },
};

export function openApiDocument(routes: readonly RegisteredRoute[], version: string) {
  const components: Record<string, JsonSchema> = {
    Refusal: {
      type: 'object',
      required: ['success', 'code', 'msg', 'data'],
      properties: {
        success: { const: false },
        code: { type: 'integer' },
        msg: { type: 'string' },
        data: { type: 'null' },
      },
    },
  };
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    if (!route.url.startsWith('/api/') || route.method === 'HEAD') continue;
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const operationId = operationIdOf(route.method, route.url);
    const hoist = (schema: JsonSchema) => hoistDefs(schema, operationId, components);
    const operation = describe(route, operationId, hoist);
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Roost API',
      version,
      description:
        "Monitoring and management of poultry and livestock houses. Every answer is an envelope `{ success, code, msg, data }`. Sign in with `POST /api/login`; send the token as `Authorization: Bearer <token>`. State-changing calls from another site are refused. `x-roles` names the roles that may call an operation; `x-operating` marks an operating action, which also needs the user's operation permission.",
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: components,
    },
    paths,
  };
}

function describe(
  route: RegisteredRoute,
  operationId: string,
  hoist: (schema: JsonSchema) => JsonSchema,
): Operation {
  const schema: RouteSchema = route.schema ?? {};
  const tag = route.url.split('/')[2] ?? 'api';
  const parameters = [
    ...parametersOf(schema.params, 'path', hoist),
    ...parametersOf(schema.querystring, 'query', hoist),
  ];
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(schema.response ?? {})) {
    const media = mediaTypesOf(answer);
    responses[status] = media
      ? {
          description: answer.description ?? 'A file',
          content: Object.fromEntries(
            media.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
          ),
        }
      : {
          description: answer.description ?? 'Done',
          content: { 'application/json': { schema: hoist(jsonSchemaOf(answer, 'output')) } },
        };
  }
  responses['4XX'] = REFUSAL;
  const operation: Operation = {
    operationId,
    tags: [tag],
    security: route.public ? [] : [{ bearer: [] }],
    responses,
  };
  if (schema.summary) operation.summary = schema.summary;
  if (schema.description) operation.description = schema.description;
  if (parameters.length > 0) operation.parameters = parameters;
  if (schema.body) {
    const type = schema.consumes?.[0] ?? 'application/json';
    operation.requestBody = {
      required: true,
      content: { [type]: { schema: hoist(jsonSchemaOf(schema.body, 'input')) } },
    };
  } else if (schema.consumes) {
    operation.requestBody = {
      required: true,
      content: Object.fromEntries(schema.consumes.map((type) => [type, {}])),
    };
  }
  if (route.roles) operation['x-roles'] = route.roles;
  if (route.operating) operation['x-operating'] = true;
  return operation;
}

/** Path or query parameters from an object schema: one parameter per property. */
function parametersOf(
  schema: z.ZodType | undefined,
  where: 'path' | 'query',
  hoist: (schema: JsonSchema) => JsonSchema,
): unknown[] {
  if (!schema) return [];
  const json = hoist(jsonSchemaOf(schema, 'input'));
  const properties = objectPropertiesOf(json);
  const required = new Set(
    Array.isArray(json['required']) ? (json['required'] as string[]) : undefined,
  );
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property as JsonSchema;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

/** The properties of an object schema, or of the object in an `allOf` (a refined object). */
function objectPropertiesOf(json: JsonSchema): Record<string, unknown> {
  if (json['properties']) return json['properties'] as Record<string, unknown>;
  for (const part of (json['allOf'] ?? json['anyOf'] ?? []) as JsonSchema[]) {
    if (part['properties']) return part['properties'] as Record<string, unknown>;
  }
  return {};
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Transforms and refinements have no JSON Schema: their input (or output) type stands for them.
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  const { $schema: _dialect, ...rest } = json as JsonSchema;
  return rest;
}

/**
 * A schema that names parts of itself (`$defs`, from recursive shapes like the farm tree) has
 * them moved to the document's components, as a `$ref` inside an operation resolves against
 * the document, not the schema.
 */
function hoistDefs(
  json: JsonSchema,
  prefix: string,
  components: Record<string, JsonSchema>,
): JsonSchema {
  const defs = json['$defs'] as Record<string, JsonSchema> | undefined;
  if (!defs) return json;
  const { $defs: _moved, ...rest } = json;
  const names = new Map(Object.keys(defs).map((name) => [name, `${prefix}_${name}`]));
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => {
        if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')) {
          const name = names.get(inner.slice('#/$defs/'.length));
          return [key, `#/components/schemas/${name}`];
        }
        return [key, rewrite(inner)];
      }),
    );
  };
  for (const [name, def] of Object.entries(defs))
    components[names.get(name)!] = rewrite(def) as JsonSchema;
  return rewrite(rest) as JsonSchema;
}

/** `GET /api/production/power/month` → `getProductionPowerMonth`; `:id` → `ById`. */
function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split(/[/_-]+/)
    .filter((w) => w !== '')
    .map((w) => (w.startsWith(':') ? `by-${w.slice(1)}` : w))
    .flatMap((w) => w.split('-'));
  return method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/**
 * What a route fails to declare: its answers, its roles (unless public), a schema for the
 * parameters in its path. The contract test lists these for every route; one entry fails CI.
 */
export function undeclared(route: RegisteredRoute): string[] {
  if (!route.url.startsWith('/api/') || route.method === 'HEAD') return [];
  const gaps: string[] = [];
  const schema = route.schema;
  const answered = Object.keys(schema?.response ?? {}).some((status) => /^2\d\d$/.test(status));
  if (!answered) gaps.push('no answer schema (schema.response[2xx])');
  if (!route.public && !route.roles) gaps.push('no roles (config.roles)');
  if (route.url.includes(':') && !schema?.params)
    gaps.push('path parameters without schema.params');
  return gaps;
}
