import { and, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import {
  NO_PROVIDER,
  type DrillReceipt,
  type DrillReport,
  type DrillSummary,
} from '../../src/contract/notifyDrill';
import type { Db } from '../db/client';
import { notifyDrillReceipts, notifyDrills } from '../db/notifySchema';
import { farms, houses } from '../db/schema';
import { toCsv } from '../export/csv';

const iso = (v: Date | null) => (v === null ? null : v.toISOString());
const secondsAfter = (start: Date, v: Date | null) =>
  v === null ? null : Math.round((v.getTime() - start.getTime()) / 100) / 10;

/** How many people (entries) of the drill have a receipt matching `where`. */
const peopleOfDrill = (where?: SQL) =>
  sql<number>`(select count(distinct ${notifyDrillReceipts.phoneId})::int from ${notifyDrillReceipts}
    where ${and(eq(notifyDrillReceipts.drillId, notifyDrills.id), where)})`.mapWith(Number);

/**
 * People the drill reached by no channel: every receipt of theirs was tried, none is confirmed,
 * and each either never left Roost (no provider, a refusal) or was reported undeliverable.
 * They cannot confirm, so the drill does not wait for them.
 */
const notDeliveredOfDrill = () => {
  const r = notifyDrillReceipts;
  return sql<number>`(select count(*)::int from (select ${r.phoneId} from ${r}
    where ${r.drillId} = ${notifyDrills.id} group by ${r.phoneId}
    having bool_and(${r.tries} > 0 and ${r.acknowledgedAt} is null
      and (${r.sentAt} is null or ${r.failedDetail} is not null))) as unreached)`.mapWith(Number);
};

/** Drills as their summaries, with the house and farm they are of. */
const summaries = (db: Db, where: SQL | undefined) =>
  db
    .select({
      id: notifyDrills.id,
      farmId: notifyDrills.farmId,
      farmName: farms.name,
      houseId: notifyDrills.houseId,
      houseName: houses.name,
      startedBy: notifyDrills.startedBy,
      scheduled: notifyDrills.scheduled,
      startedAt: notifyDrills.startedAt,
      people: peopleOfDrill(),
      confirmed: peopleOfDrill(isNotNull(notifyDrillReceipts.acknowledgedAt)),
      notDelivered: notDeliveredOfDrill(),
    })
    .from(notifyDrills)
    .innerJoin(farms, eq(farms.id, notifyDrills.farmId))
    .innerJoin(houses, eq(houses.id, notifyDrills.houseId))
    .where(where);

type SummaryRow = Awaited<ReturnType<typeof summaries>>[number];

const summaryOf = (r: SummaryRow): DrillSummary => ({ ...r, startedAt: r.startedAt.toISOString() });

/** The latest drills, of one house or all. */
export async function drillList(db: Db, houseId?: number): Promise<DrillSummary[]> {
  const rows = await summaries(db, houseId ? eq(notifyDrills.houseId, houseId) : undefined)
    .orderBy(desc(notifyDrills.startedAt), desc(notifyDrills.id))
    .limit(200);
  return rows.map(summaryOf);
}

/** A drill's report: every person and channel with its timings, and who did not confirm. */
export async function drillReport(db: Db, drillId: number): Promise<DrillReport | null> {
  const [row] = await summaries(db, eq(notifyDrills.id, drillId));
  if (!row) return null;
  const drill = summaryOf(row);
  const start = row.startedAt;
  const t = notifyDrillReceipts;
  const rows = await db
    .select({
      phoneId: t.phoneId,
      phone: t.phone,
      level: t.level,
      channel: sql<DrillReceipt['channel']>`${t.channel}`,
      adapter: t.adapter,
      tries: t.tries,
      sentAt: t.sentAt,
      deliveredAt: t.deliveredAt,
      acknowledgedAt: t.acknowledgedAt,
      ackComment: t.ackComment,
      failedDetail: t.failedDetail,
    })
    .from(t)
    .where(eq(t.drillId, drillId))
    .orderBy(t.level, t.phoneId, t.channel);
  const receipts: DrillReceipt[] = rows.map((r) => ({
    phoneId: r.phoneId,
    phone: r.phone,
    level: r.level,
    channel: r.channel,
    adapter: r.adapter,
    tries: r.tries,
    sentAt: iso(r.sentAt),
    sentSeconds: secondsAfter(start, r.sentAt),
    deliveredAt: iso(r.deliveredAt),
    deliveredSeconds: secondsAfter(start, r.deliveredAt),
    acknowledgedAt: iso(r.acknowledgedAt),
    ackSeconds: secondsAfter(start, r.acknowledgedAt),
    ackComment: r.ackComment,
    failedDetail: r.failedDetail,
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
/** The stored "no provider" detail in the reader's words; providers' own details stay as said. */
const NO_PROVIDER_WORDS = {
  en: 'Not delivered: no SMS/voice provider or webhook is set',
  zh: '未送达：未配置短信/语音服务商或 Webhook',
} as const;

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
      r.failedDetail === NO_PROVIDER ? NO_PROVIDER_WORDS[locale] : r.failedDetail,
    ]),
  );
}
