import { createHmac } from 'node:crypto';
import type { Notification, TryResult } from '../alarms/channels';
import { judgeErrcode, type GroupAdapter } from './group';
import { alarmText, type NotifyLocale } from './message';
import { realSleep, request, withRetry, type Sleep } from './retry';

/**
 * DingTalk's signature of a custom robot: HMAC-SHA256 keyed with the robot's secret over
 * `<timestamp in ms>\n<secret>`, base64, then URL-encoded into the query beside the timestamp.
 */
export function dingtalkSign(timestampMs: number, secret: string): string {
  return createHmac('sha256', secret).update(`${timestampMs}\n${secret}`).digest('base64');
}

export class DingtalkRobotAdapter implements GroupAdapter {
  readonly name = 'dingtalk';
  readonly channel = 'robot';
  constructor(
    private readonly o: {
      accessToken: string;
      /** The robot's "加签" secret (SEC…); without it the robot must rely on keywords or IPs. */
      secret: string | null;
      /** https://oapi.dingtalk.com; tests point it at loopback. */
      url: string;
      locale: NotifyLocale;
      timeZone: string;
      now?: () => Date;
      sleep?: Sleep;
    },
  ) {}

  send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    const body = JSON.stringify({
      msgtype: 'text',
      text: { content: alarmText(n, this.o.locale, this.o.timeZone) },
    });
    const post = () => {
      // Signed anew on each try: DingTalk refuses a timestamp more than an hour old.
      let url = `${this.o.url.replace(/\/$/, '')}/robot/send?access_token=${encodeURIComponent(this.o.accessToken)}`;
      if (this.o.secret) {
        const ts = (this.o.now ?? (() => new Date()))().getTime();
        url += `&timestamp=${ts}&sign=${encodeURIComponent(dingtalkSign(ts, this.o.secret))}`;
      }
      return request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body },
        judgeErrcode,
      );
    };
    return withRetry(post, onTry, this.o.sleep ?? realSleep);
  }
}
