import type { ChannelAdapter } from '../alarms/channels';
import { AliyunSmsAdapter, AliyunVoiceAdapter } from './aliyun';
import type { NotifyConfig } from './config';
import { DingtalkRobotAdapter } from './dingtalk';
import { FeishuRobotAdapter } from './feishu';
import type { GroupAdapter } from './group';
import { TencentSmsAdapter } from './tencent';
import { TwilioSmsAdapter, TwilioVoiceAdapter } from './twilio';

/** Where Twilio posts its delivery reports (server/notify/routes/receipts.ts). */
export const TWILIO_RECEIPT_PATH = '/api/notify/receipt/twilio';
import { WecomRobotAdapter } from './wecom';

export interface NotifyAdapters {
  sms: ChannelAdapter;
  voice: ChannelAdapter;
  group: GroupAdapter[];
}

/**
 * The adapters the environment asks for. Text messages and calls go to the chosen provider, or
 * as before to the webhook (ROOST_NOTIFY_WEBHOOK_URL), else nowhere (not delivered: no provider);
 * every configured robot hears each alarm once. E-mail goes to people, not entries
 * (server/notify/mail.ts).
 */
export function notifyAdapters(
  c: NotifyConfig,
  base: { sms: ChannelAdapter; voice: ChannelAdapter },
  timeZone: string,
): NotifyAdapters {
  const common = { locale: c.locale, timeZone };
  const twilio = c.twilio && {
    ...c.twilio,
    countryCode: c.countryCode,
    ...common,
    statusCallback: c.publicUrl ? `${c.publicUrl}${TWILIO_RECEIPT_PATH}` : null,
  };
  let sms: ChannelAdapter = base.sms;
  if (c.sms === 'aliyun' && c.aliyun)
    sms = new AliyunSmsAdapter({
      credentials: c.aliyun,
      url: c.aliyun.smsUrl,
      signName: c.aliyun.smsSignName,
      templateCode: c.aliyun.smsTemplate,
      ...common,
    });
  else if (c.sms === 'tencent' && c.tencent)
    sms = new TencentSmsAdapter({ ...c.tencent, countryCode: c.countryCode, ...common });
  else if (c.sms === 'twilio' && twilio) sms = new TwilioSmsAdapter(twilio);
  let voice: ChannelAdapter = base.voice;
  if (c.voice === 'aliyun' && c.aliyun)
    voice = new AliyunVoiceAdapter({
      credentials: c.aliyun,
      url: c.aliyun.voiceUrl,
      ttsCode: c.aliyun.voiceTtsCode,
      showNumber: c.aliyun.voiceShowNumber,
      ...common,
    });
  else if (c.voice === 'twilio' && twilio) voice = new TwilioVoiceAdapter(twilio);
  const group: GroupAdapter[] = [];
  if (c.wecom) group.push(new WecomRobotAdapter({ ...c.wecom, ...common }));
  if (c.dingtalk) group.push(new DingtalkRobotAdapter({ ...c.dingtalk, ...common }));
  if (c.feishu) group.push(new FeishuRobotAdapter({ ...c.feishu, ...common }));
  return { sms, voice, group };
}
