import type { Notification, TryResult } from '../alarms/channels';
import type { GroupAdapter } from './group';
import { judgeErrcode } from './group';
import { alarmText, type NotifyLocale } from './message';
import { realSleep, request, withRetry, type Sleep } from './retry';

/**
 * A WeCom (企业微信) group robot: the robot's key in the URL is its only credential
 * (`/cgi-bin/webhook/send?key=…`), the body a text message.
 */
export class WecomRobotAdapter implements GroupAdapter {
  readonly name = 'wecom';
  readonly channel = 'robot';
  constructor(
    private readonly o: {
      key: string;
      /** https://qyapi.weixin.qq.com; tests point it at loopback. */
      url: string;
      locale: NotifyLocale;
      timeZone: string;
      sleep?: Sleep;
    },
  ) {}

  send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    const url = `${this.o.url.replace(/\/$/, '')}/cgi-bin/webhook/send?key=${encodeURIComponent(this.o.key)}`;
    const body = JSON.stringify({
      msgtype: 'text',
      text: { content: alarmText(n, this.o.locale, this.o.timeZone) },
    });
    const post = () =>
      request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body },
        judgeErrcode,
      );
    return withRetry(post, onTry, this.o.sleep ?? realSleep);
  }
}
