import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  normaliseLocale,
  type ApiCode,
  type ApiEnvelope,
  type Locale,
} from '../../src/contract/envelope';
import { newPasswordMinLength } from '../../src/contract/password';
import type { Edition } from '../../src/contract/editions';
import { ApiError } from './errors';
import { isMessageKey, translate, type MessageKey } from './messages';

/** The request's language: the console's `Locale` header, else the browser's Accept-Language. */
export function localeOf(request: FastifyRequest): Locale {
  const header = request.headers['locale'];
  const value = Array.isArray(header) ? header[0] : header;
  return normaliseLocale(value ?? request.headers['accept-language']);
}

export function envelope<T>(code: ApiCode, msg: string, data: T): ApiEnvelope<T> {
  return { success: code === 200, code, msg, data };
}

/** Answers 200 with the data in the envelope. */
export function ok<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  data: T,
  key: MessageKey = 'ok',
) {
  return reply.code(200).send(envelope(200, translate(key, localeOf(request)), data));
}

/**
 * Answers 200 with data already written as JSON text (an answer of megabytes the database wrote,
 * sent without parsing and writing it again): the same envelope `ok` sends.
 */
export function okJson(
  request: FastifyRequest,
  reply: FastifyReply,
  dataJson: string,
  key: MessageKey = 'ok',
) {
  const msg = JSON.stringify(translate(key, localeOf(request)));
  const body = `{"success":true,"code":200,"msg":${msg},"data":${dataJson}}`;
  // Where answers are checked (tests, `npm run dev`), this one is too, though written as text.
  const schema = (
    request.routeOptions.schema?.response as Record<number, z.ZodType> | undefined
  )?.[200];
  if (request.server.answerCheck && schema)
    request.server.answerCheck(schema, JSON.parse(body), request.routeOptions.url ?? request.url);
  return reply.code(200).type('application/json; charset=utf-8').send(body);
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError) {
  const msg = translate(error.key, localeOf(request), error.params);
  return reply.code(error.status).send(envelope(error.status, msg, null));
}

/**
 * Parses input with a shared zod schema, or refuses it with 400 and the first problem in the
 * user's language. Schema messages that are message keys are translated; others name the field.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  edition: Edition = 'default',
): z.output<S> {
  const control = controlCharacterAt(value, '');
  if (control !== null) throw new ApiError(400, 'http.invalidField', { field: control || 'body' });
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue && isMessageKey(issue.message)) {
    throw new ApiError(400, issue.message, { min: newPasswordMinLength(edition) });
  }
  const field = issue?.path.map(String).join('.') || 'body';
  throw new ApiError(400, 'http.invalidField', { field });
}

/**
 * Control characters other than tab and line breaks are never meant in anything typed, and
 * PostgreSQL cannot store a NUL in text or JSON at all (the write failed with a 500). Every
 * input passes here before its schema, so no route can forget it. Answers the path of the
 * first string or key that has one, or null.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function controlCharacterAt(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return CONTROL.test(value) ? path : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (CONTROL.test(key)) return at;
    const found = controlCharacterAt(item, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
