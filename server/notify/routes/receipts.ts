import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  aliyunReceiptAnswerSchema,
  aliyunSmsReportSchema,
  aliyunVoiceReportSchema,
  receiptTokenSchema,
  tencentReceiptAnswerSchema,
  tencentSmsStatusSchema,
} from '../../../src/contract/notifyReceipts';
import type { AppContext } from '../../http/context';
import { parseInput } from '../../http/envelope';
import type { RoutePlugin } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { TWILIO_RECEIPT_PATH } from '../adapters';
import { applyDeliveryReport, sameSecret, type DeliveryReport } from '../receipts';

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

const short = (s: string) => s.trim().slice(0, 200);

/**
 * Alibaba Cloud's call results that mean the person picked up: heard to the end (200000) or hung
 * up before it (200001). Every other result of a call is a call nobody took (busy, no answer,
 * switched off, out of service …); DTMF (300000) and the progress codes of a call under way
 * (2001xx, 2002xx, pushed as VoiceCallReport) are no result and are passed over.
 */
const ALIYUN_ANSWERED = new Set(['200000', '200001']);
const aliyunCallEnded = (code: string) => code !== '300000' && !/^200[12]\d\d$/.test(code);

/**
 * Providers' delivery reports, matched to what Roost sent by the provider's message id
 * (server/notify/receipts.ts). Twilio signs its StatusCallback with the account's auth token;
 * Alibaba Cloud and Tencent Cloud sign nothing, so their reports count only at the secret
 * address configured with them (ROOST_ALIYUN_SMS_RECEIPT_TOKEN, ROOST_ALIYUN_VOICE_RECEIPT_TOKEN,
 * ROOST_TENCENT_SMS_RECEIPT_TOKEN).
 * Without its secret a provider's route answers 404; a wrong secret or signature 403; a report
 * that names no message Roost sent 404.
 */
export function receiptRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;
  const { twilio, publicUrl, receiptTokens } = ctx.config.notify;

  /** Applies each report; refuses the batch when none of it names a message Roost sent. */
  const apply = async (reports: DeliveryReport[]) => {
    const now = new Date();
    let known = 0;
    for (const r of reports) if (await applyDeliveryReport(database, r, now)) known += 1;
    if (known === 0) throw new Refusal('notFound', 'notify.receiptUnknown');
  };

  /**
   * The secret path segment, checked in constant time. It runs before the body is checked
   * (`preValidation`): an address without its secret answers 404 or 403 whatever was posted,
   * and says nothing about what a report should look like.
   */
  const secretOf = (expected: string | null) => async (request: FastifyRequest) => {
    if (!expected) throw new Refusal('notFound', 'http.notFound');
    const { token } = parseInput(receiptTokenSchema, request.params);
    if (!sameSecret(token, expected)) throw new Refusal('forbidden', 'auth.forbidden');
  };

  return async (app) => {
    // Twilio posts a form; only this plugin reads forms.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.post(
      '/notify/receipt/twilio',
      {
        schema: {
          summary:
            "Twilio's delivery report of a text message or a call (signed with the auth token)",
          // Twilio's form fields are many and change; the handler reads the few it needs.
          consumes: ['application/x-www-form-urlencoded'],
          // Twilio reads only the status: the answer has no body, so no media type either.
          response: {
            204: z.undefined().meta({ description: 'Taken', 'x-media-types': [] }),
          },
        },
        config: { public: true },
      },
      async (request, reply) => {
        if (!twilio || !publicUrl) throw new Refusal('notFound', 'http.notFound');
        const params = (request.body ?? {}) as Record<string, string>;
        const expected = twilioSignature(
          twilio.authToken,
          `${publicUrl}${TWILIO_RECEIPT_PATH}`,
          params,
        );
        if (!sameSecret(String(request.headers['x-twilio-signature'] ?? ''), expected))
          throw new Refusal('forbidden', 'auth.forbidden');
        const sid = params.MessageSid ?? params.CallSid ?? '';
        const status = params.MessageStatus ?? params.CallStatus ?? '';
        // Interim states (queued, sent, ringing …) say nothing yet.
        if (sid && (DELIVERED.has(status) || FAILED.has(status)))
          await apply([
            {
              providerId: sid,
              delivered: DELIVERED.has(status),
              detail: `Twilio ${status}${params.ErrorCode ? ` ${params.ErrorCode}` : ''}`,
            },
          ]);
        return reply.code(204).send();
      },
    );

    /** Alibaba Cloud SMS "SmsReport" HTTP batch push; it wants `{ code: 0 }` back. */
    app.post(
      '/notify/receipt/aliyun/:token',
      {
        schema: {
          summary: "Alibaba Cloud's delivery reports of text messages (at the secret address)",
          params: receiptTokenSchema,
          body: aliyunSmsReportSchema,
          response: { 200: aliyunReceiptAnswerSchema },
        },
        config: { public: true },
        preValidation: secretOf(receiptTokens.aliyun),
      },
      async (request, reply) => {
        await apply(
          request.body.map((r) => ({
            providerId: r.biz_id,
            delivered: r.success,
            detail: short(`Aliyun ${r.err_code} ${r.err_msg ?? ''}`),
          })),
        );
        return reply.code(200).send({ code: 0, msg: 'OK' });
      },
    );

    /**
     * Alibaba Cloud voice "VoiceReport" HTTP batch push, one record per ended call; it wants
     * `{ code: 0 }` back. A batch of progress records only is taken and changes nothing.
     */
    app.post(
      '/notify/receipt/aliyun-voice/:token',
      {
        schema: {
          summary: "Alibaba Cloud's reports of ended voice calls (at the secret address)",
          params: receiptTokenSchema,
          body: aliyunVoiceReportSchema,
          response: { 200: aliyunReceiptAnswerSchema },
        },
        config: { public: true },
        preValidation: secretOf(receiptTokens.aliyunVoice),
      },
      async (request, reply) => {
        const calls = request.body.filter((c) => aliyunCallEnded(c.status_code));
        if (calls.length > 0)
          await apply(
            calls.map((c) => ({
              providerId: c.call_id,
              delivered: ALIYUN_ANSWERED.has(c.status_code),
              detail: short(`Aliyun ${c.status_code} ${c.status_msg ?? ''}`),
            })),
          );
        return reply.code(200).send({ code: 0, msg: 'OK' });
      },
    );

    /** Tencent Cloud SMS status callback; it wants `{ result: 0, errmsg: "OK" }` back. */
    app.post(
      '/notify/receipt/tencent/:token',
      {
        schema: {
          summary: "Tencent Cloud's delivery reports of text messages (at the secret address)",
          params: receiptTokenSchema,
          body: tencentSmsStatusSchema,
          response: { 200: tencentReceiptAnswerSchema },
        },
        config: { public: true },
        preValidation: secretOf(receiptTokens.tencent),
      },
      async (request, reply) => {
        await apply(
          request.body.map((r) => ({
            providerId: r.sid,
            delivered: r.report_status === 'SUCCESS',
            detail: short(`Tencent ${r.errmsg} ${r.description ?? ''}`),
          })),
        );
        return reply.code(200).send({ result: 0, errmsg: 'OK' });
      },
    );
  };
}
