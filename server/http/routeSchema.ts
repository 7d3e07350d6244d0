import type {
  FastifyPluginAsync,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
  FastifyTypeProvider,
  RawServerDefault,
} from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { z } from 'zod';
import { ROLE_KEYS, type RoleKey } from '../../src/contract/roles';
import type { Edition } from '../../src/contract/editions';
import { parseInput } from './envelope';
import { ApiError } from './errors';

/**
 * Routes declare what they take and what they answer with the contract's zod schemas, and the
 * roles that may call them, in their options:
 *
 *   app.get('/production/power', {
 *     schema: { querystring: powerQuerySchema, response: answers(powerDaySchema) },
 *     config: { roles: ANY_ROLE },
 *   }, async (request) => … request.query is parsed and typed …)
 *
 * Fastify runs the schema before the handler (after the session and role checks), so a handler
 * receives parsed input; `server/system/openapi.ts` describes the API from the same options.
 */
export interface ZodProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** A feature's route plugin, its handlers typed from their schemas. */
export type RoutePlugin = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodProvider>;

/** Every role: routes any signed-in user may call (what they then see is their scope's). */
export const ANY_ROLE: readonly RoleKey[] = ROLE_KEYS;

/** The envelope every JSON answer travels in (`ok` in ./envelope.ts writes it). */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    code: z.literal(200),
    msg: z.string().meta({ description: "A short word in the user's language" }),
    data,
  });
}

/** The `response` of a route answering `data` in the envelope. */
export function answers<T extends z.ZodType>(data: T) {
  return { 200: envelopeOf(data) };
}

/** Answers `{ …, data: null }`: done, nothing more to say. */
export const done = answers(z.null());

/**
 * A route answering a file or a stream (a CSV, a workbook, a video segment), not JSON: its
 * `response` names the media types, for the API description; nothing is checked at run time.
 */
export function fileAnswer(mediaTypes: readonly string[], description: string) {
  return {
    200: z
      .custom<FileBody>(() => true)
      .meta({ description, 'x-media-types': mediaTypes, format: 'binary' }),
  };
}

/** What a file answer's handler sends: text, bytes or a stream (Fastify sends them as they are). */
type FileBody = string | Buffer | NodeJS.ReadableStream;

/** The media types a file answer names (undefined for a JSON answer). */
export function mediaTypesOf(schema: z.ZodType): readonly string[] | undefined {
  const meta = z.globalRegistry.get(schema) as { 'x-media-types'?: readonly string[] } | undefined;
  return meta?.['x-media-types'];
}

/**
 * Parses each request part with the route's schema through `parseInput`, so a refusal is the
 * same 400 in the user's language as before (the first problem named, control characters
 * refused), and the handler gets the parsed value, defaults and coercions applied.
 */
export function zodValidatorCompiler(edition: Edition): FastifySchemaCompiler<z.ZodType> {
  return ({ schema }) =>
    (data: unknown) => {
      try {
        return { value: parseInput(schema, data, edition) };
      } catch (error) {
        if (error instanceof ApiError) return { error };
        throw error;
      }
    };
}

/**
 * Writes an answer as JSON. With `check` (tests and `npm run dev`) it first checks the answer
 * against the route's schema and fails the request loudly when the server drifted from its
 * contract; in production the check is skipped, as the answers of the overview run to megabytes.
 */
export function zodSerializerCompiler(
  check: boolean,
  onDrift: (url: string, issue: string) => void,
): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, url }) =>
    (data: unknown) => {
      const json = JSON.stringify(data);
      // What is checked is what the browser will read: dates as text, undefined fields gone.
      if (check) checkAnswer(schema, JSON.parse(json), url, onDrift);
      return json;
    };
}

/** Checks an answer against its schema (see `zodSerializerCompiler`); throws when it drifted. */
export function checkAnswer(
  schema: z.ZodType,
  data: unknown,
  url: string,
  onDrift: (url: string, issue: string) => void,
): void {
  const result = schema.safeParse(data);
  if (result.success) return;
  const issue = result.error.issues[0];
  const where = issue?.path.map(String).join('.') ?? '';
  const text = `${where || 'answer'}: ${issue?.message ?? 'invalid'}`;
  onDrift(url, text);
  throw new AnswerDrift(url, text);
}

/** The server answered outside its contract (seen only where answers are checked). */
export class AnswerDrift extends Error {
  constructor(url: string, issue: string) {
    super(`answer of ${url} does not match its schema: ${issue}`);
  }
}

/** The route's schemas as Fastify keeps them, typed for the parts Roost uses. */
export interface RouteSchema extends FastifySchema {
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  response?: Record<number, z.ZodType>;
  summary?: string;
  description?: string;
  tags?: string[];
  consumes?: string[];
}

/**
 * A delete names its entry in a JSON body `{ id }`, as the console sends it; one sent without a
 * body (as many HTTP clients send a DELETE) may name it in the query (`?id=`) instead, as it
 * always could. A route's `preValidation`: it runs before the body is checked, so the body's
 * schema reads whichever came.
 */
export async function bodyOrQuery(request: FastifyRequest): Promise<void> {
  request.body ??= request.query;
}
