import type { ChannelAdapter, TryResult } from '../alarms/channels';

/**
 * A channel that reaches a group rather than one phone: a chat group's robot or a mailbox. It
 * hears each alarm once, when its first notification goes out, so a group is not told once per
 * alarm phone entry.
 */
export interface GroupAdapter extends ChannelAdapter {
  readonly channel: 'robot' | 'email';
}

/** WeCom and DingTalk robots answer HTTP 200 with `errcode: 0`; anything else is a refusal. */
export function judgeErrcode(status: number, body: unknown): TryResult {
  const b = body as { errcode?: number; errmsg?: string };
  if (status === 200 && b?.errcode === 0) return { ok: true, detail: 'ok' };
  const said = b?.errcode !== undefined ? `${b.errcode} ${b.errmsg ?? ''}`.trim() : body;
  return {
    ok: false,
    detail: `HTTP ${status} ${typeof said === 'string' ? said : JSON.stringify(said)}`.slice(
      0,
      200,
    ),
  };
}
