import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../http/context';
import { Refusal } from '../../refusal';
import { TWILIO_RECEIPT_PATH } from '../adapters';

/**
 * Twilio's request signature (X-Twilio-Signature): HMAC-SHA1 under the auth token of the full
 * address Twilio called followed by every POST parameter's name and value, sorted by name,
 * base64.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>) {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, k) => acc + k + (params[k] ?? ''), url);
  return createHmac('sha1', authToken).update(data).digest('base64');
}

/** Message and call outcomes that mean the person's phone got it, and those that mean it never will. */
const DELIVERED = new Set(['delivered', 'completed']);
const FAILED = new Set(['undelivered', 'failed', 'busy', 'no-answer', 'canceled']);

/**
 * Providers' delivery reports, for drill receipts: Twilio posts each message's and call's
 * status to the StatusCallback Roost gave it. Only a report signed with the account's auth
 * token counts; without Twilio and a public address the route answers 404.
 */
export function receiptRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database } = ctx;
  const { twilio, publicUrl } = ctx.config.notify;
  return async (app) => {
    // Twilio posts a form; only this plugin reads forms.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.post('/notify/receipt/twilio', { config: { public: true } }, async (request, reply) => {
      if (!twilio || !publicUrl) throw new Refusal('notFound', 'http.notFound');
      const params = (request.body ?? {}) as Record<string, string>;
      const given = Buffer.from(String(request.headers['x-twilio-signature'] ?? ''));
      const expected = Buffer.from(
        twilioSignature(twilio.authToken, `${publicUrl}${TWILIO_RECEIPT_PATH}`, params),
      );
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new Refusal('forbidden', 'auth.forbidden');
      const sid = params.MessageSid ?? params.CallSid ?? '';
      const status = params.MessageStatus ?? params.CallStatus ?? '';
      if (sid && DELIVERED.has(status))
        await database.query(
          `update notify_drill_receipts set delivered_at = $2
           where provider_id = $1 and delivered_at is null`,
          [sid, new Date()],
        );
      else if (sid && FAILED.has(status))
        await database.query(
          `update notify_drill_receipts set failed_detail = $2
           where provider_id = $1 and delivered_at is null`,
          [sid, `Twilio ${status}${params.ErrorCode ? ` ${params.ErrorCode}` : ''}`],
        );
      return reply.code(204).send();
    });
  };
}
