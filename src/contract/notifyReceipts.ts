import { z } from 'zod';

/**
 * Delivery reports SMS providers push to Roost. Only the fields Roost reads are checked; the
 * providers send more (and may add fields), which pass through unread.
 */

/**
 * Alibaba Cloud SMS "SmsReport" over HTTP batch push: a JSON array, one element per message,
 * `biz_id` being the BizId SendSms answered; `success` says whether the phone received it.
 */
export const aliyunSmsReportSchema = z
  .array(
    z.object({
      phone_number: z.string().max(32),
      success: z.boolean(),
      err_code: z.string().max(64),
      err_msg: z.string().max(500).optional(),
      biz_id: z.string().min(1).max(128),
      report_time: z.string().max(32).optional(),
      send_time: z.string().max(32).optional(),
      out_id: z.string().max(128).optional(),
    }),
  )
  .min(1)
  .max(500);
export type AliyunSmsReport = z.infer<typeof aliyunSmsReportSchema>;

/**
 * Alibaba Cloud voice "VoiceReport" over HTTP batch push: a JSON array, one element per call
 * when it has ended, `call_id` being the CallId SingleCallByTts answered and `status_code` the
 * call's result (200000 the person heard the message to its end, 200001 hung up before it; the
 * others say why nobody answered: busy, no answer, switched off …).
 */
export const aliyunVoiceReportSchema = z
  .array(
    z.object({
      call_id: z.string().min(1).max(128),
      status_code: z.string().regex(/^\d{1,8}$/),
      status_msg: z.string().max(200).optional(),
      callee: z.string().max(32).optional(),
      duration: z.union([z.string().max(16), z.number()]).optional(),
      end_time: z.string().max(32).optional(),
      out_id: z.string().max(256).optional(),
    }),
  )
  .min(1)
  .max(500);
export type AliyunVoiceReport = z.infer<typeof aliyunVoiceReportSchema>;

/**
 * Tencent Cloud SMS status callback: a JSON array, `sid` being the SerialNo SendSms answered;
 * `report_status` SUCCESS or FAIL, `errmsg` the receipt status code (DELIVRD, …).
 */
export const tencentSmsStatusSchema = z
  .array(
    z.object({
      mobile: z.string().max(32),
      nationcode: z.string().max(8).optional(),
      report_status: z.enum(['SUCCESS', 'FAIL']),
      errmsg: z.string().max(128),
      description: z.string().max(500).optional(),
      sid: z.string().min(1).max(128),
      user_receive_time: z.string().max(32).optional(),
    }),
  )
  .min(1)
  .max(500);
export type TencentSmsStatus = z.infer<typeof tencentSmsStatusSchema>;

/** The secret path segment a receipt address carries (ROOST_*_RECEIPT_TOKEN). */
export const receiptTokenSchema = z.object({ token: z.string().min(1).max(200) });

/** What Alibaba Cloud wants back for a report it pushed (SMS and voice alike): taken. */
export const aliyunReceiptAnswerSchema = z.object({ code: z.literal(0), msg: z.literal('OK') });

/** What Tencent Cloud wants back for a status callback: taken. */
export const tencentReceiptAnswerSchema = z.object({
  result: z.literal(0),
  errmsg: z.literal('OK'),
});
