import { createHmac } from 'node:crypto';
import type { Notification, TryResult } from '../alarms/channels';
import type { GroupAdapter } from './group';
import { alarmText, type NotifyLocale } from './message';
import { realSleep, refused, request, withRetry, type Sleep } from './retry';

/**
 * Feishu's signature of a custom bot: HMAC-SHA256 keyed with `<timestamp in s>\n<secret>` over
 * an empty message, base64; timestamp and sign travel in the JSON body.
 */
export function feishuSign(timestampS: number, secret: string): string {
  return createHmac('sha256', `${timestampS}\n${secret}`).update('').digest('base64');
}

/** Feishu answers `code: 0` (older bots `StatusCode: 0`) when the message was posted. */
function judge(status: number, body: unknown): TryResult {
  const b = body as { code?: number; msg?: string; StatusCode?: number };
  if (status === 200 && (b?.code === 0 || b?.StatusCode === 0)) return { ok: true, detail: 'ok' };
  return refused(status, b?.code !== undefined ? `${b.code} ${b.msg ?? ''}`.trim() : body);
}

export class FeishuRobotAdapter implements GroupAdapter {
  readonly name = 'feishu';
  readonly channel = 'robot';
  constructor(
    private readonly o: {
      /** The bot's hook id, the last part of `/open-apis/bot/v2/hook/<id>`. */
      hook: string;
      secret: string | null;
      /** https://open.feishu.cn; tests point it at loopback. */
      url: string;
      locale: NotifyLocale;
      timeZone: string;
      now?: () => Date;
      sleep?: Sleep;
    },
  ) {}

  send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    const url = `${this.o.url.replace(/\/$/, '')}/open-apis/bot/v2/hook/${encodeURIComponent(this.o.hook)}`;
    const post = () => {
      const message: Record<string, unknown> = {
        msg_type: 'text',
        content: { text: alarmText(n, this.o.locale, this.o.timeZone) },
      };
      if (this.o.secret) {
        const ts = Math.floor((this.o.now ?? (() => new Date()))().getTime() / 1000);
        message.timestamp = String(ts);
        message.sign = feishuSign(ts, this.o.secret);
      }
      return request(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(message),
        },
        judge,
      );
    };
    return withRetry(post, onTry, this.o.sleep ?? realSleep);
  }
}
