import type { DrillReceipt, DrillReport, DrillSummary } from '../../src/contract/notifyDrill';
import type { Query } from '../db/client';
import { toCsv } from '../export/csv';

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
const secondsAfter = (start: Date, v: Date | string | null) =>
  v === null ? null : Math.round((new Date(v).getTime() - start.getTime()) / 100) / 10;

const SUMMARY_SELECT = `select d.id, d.farm_id, f.name as farm_name, d.house_id, h.name as house_name,
  d.started_by, d.scheduled, d.started_at,
  (select count(distinct r.phone_id)::int from notify_drill_receipts r where r.drill_id = d.id) as people,
  (select count(distinct r.phone_id)::int from notify_drill_receipts r
    where r.drill_id = d.id and r.acknowledged_at is not null) as confirmed
  from notify_drills d join farms f on f.id = d.farm_id join houses h on h.id = d.house_id`;

interface SummaryRow {
  id: number;
  farm_id: number;
  farm_name: string;
  house_id: number;
  house_name: string;
  started_by: string;
  scheduled: boolean;
  started_at: Date | string;
  people: number;
  confirmed: number;
}

const summaryOf = (r: SummaryRow): DrillSummary => ({
  id: r.id,
  farmId: r.farm_id,
  farmName: r.farm_name,
  houseId: r.house_id,
  houseName: r.house_name,
  startedBy: r.started_by,
  scheduled: r.scheduled,
  startedAt: new Date(r.started_at).toISOString(),
  people: Number(r.people),
  confirmed: Number(r.confirmed),
});

/** The latest drills, of one house or all. */
export async function drillList(query: Query, houseId?: number): Promise<DrillSummary[]> {
  const rows = await query<SummaryRow>(
    `${SUMMARY_SELECT} ${houseId ? 'where d.house_id = $1' : ''} order by d.started_at desc, d.id desc limit 200`,
    houseId ? [houseId] : [],
  );
  return rows.map(summaryOf);
}

/** A drill's report: every person and channel with its timings, and who did not confirm. */
export async function drillReport(query: Query, drillId: number): Promise<DrillReport | null> {
  const [row] = await query<SummaryRow>(`${SUMMARY_SELECT} where d.id = $1`, [drillId]);
  if (!row) return null;
  const drill = summaryOf(row);
  const start = new Date(drill.startedAt);
  const rows = await query<{
    phone_id: number;
    phone: string;
    level: number;
    channel: 'sms' | 'voice';
    adapter: string | null;
    tries: number;
    sent_at: Date | string | null;
    delivered_at: Date | string | null;
    acknowledged_at: Date | string | null;
    ack_comment: string | null;
    failed_detail: string | null;
  }>(
    `select phone_id, phone, level, channel, adapter, tries, sent_at, delivered_at, acknowledged_at,
       ack_comment, failed_detail
     from notify_drill_receipts where drill_id = $1 order by level, phone_id, channel`,
    [drillId],
  );
  const receipts: DrillReceipt[] = rows.map((r) => ({
    phoneId: r.phone_id,
    phone: r.phone,
    level: Number(r.level),
    channel: r.channel,
    adapter: r.adapter,
    tries: Number(r.tries),
    sentAt: iso(r.sent_at),
    sentSeconds: secondsAfter(start, r.sent_at),
    deliveredAt: iso(r.delivered_at),
    deliveredSeconds: secondsAfter(start, r.delivered_at),
    acknowledgedAt: iso(r.acknowledged_at),
    ackSeconds: secondsAfter(start, r.acknowledged_at),
    ackComment: r.ack_comment,
    failedDetail: r.failed_detail,
  }));
  const unconfirmed = new Map<number, { phoneId: number; phone: string; level: number }>();
  for (const r of receipts)
    if (r.acknowledgedAt === null)
      unconfirmed.set(r.phoneId, { phoneId: r.phoneId, phone: r.phone, level: r.level });
  return { drill, receipts, unconfirmed: [...unconfirmed.values()] };
}

const HEADERS = {
  en: [
    'Phone',
    'Level',
    'Channel',
    'Provider',
    'Tries',
    'Sent',
    'Sent after (s)',
    'Delivered',
    'Delivered after (s)',
    'Confirmed',
    'Confirmed after (s)',
    'Comment',
    'Failure',
  ],
  zh: [
    '电话',
    '级别',
    '方式',
    '服务商',
    '尝试次数',
    '发送时间',
    '发送用时（秒）',
    '送达时间',
    '送达用时（秒）',
    '确认时间',
    '确认用时（秒）',
    '备注',
    '失败原因',
  ],
} as const;
const CHANNEL = { en: { sms: 'SMS', voice: 'Call' }, zh: { sms: '短信', voice: '电话' } } as const;

/** The report as CSV, one row per receipt, headed in the reader's language. */
export function drillCsv(report: DrillReport, locale: 'en' | 'zh'): Buffer {
  return toCsv(
    HEADERS[locale],
    report.receipts.map((r) => [
      r.phone,
      r.level,
      CHANNEL[locale][r.channel],
      r.adapter,
      r.tries,
      r.sentAt,
      r.sentSeconds,
      r.deliveredAt,
      r.deliveredSeconds,
      r.acknowledgedAt,
      r.ackSeconds,
      r.ackComment,
      r.failedDetail,
    ]),
  );
}
