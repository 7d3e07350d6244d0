import { and, count, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CHANNELS_OF, NO_PROVIDER, type Channel, type ChannelAdapter } from '../alarms/channels';
import { alarmPhones } from '../db/alarmSchema';
import type { Database } from '../db/client';

const WHAT: Record<Channel, { asks: string; set: string }> = {
  sms: { asks: 'text messages', set: 'ROOST_SMS_PROVIDER' },
  voice: { asks: 'voice calls', set: 'ROOST_VOICE_PROVIDER' },
};

/**
 * Said once at start: open alarm phone entries that ask for a channel nothing can carry (no
 * provider, no webhook) would otherwise wait for alarms that reach nobody, and the operator
 * learns it only from the first missed one. Answers the warnings written (tests read them).
 */
export async function warnUnreachable(
  database: Database,
  adapters: Record<Channel, ChannelAdapter>,
  log: FastifyBaseLogger,
): Promise<string[]> {
  const said: string[] = [];
  for (const channel of ['sms', 'voice'] as const) {
    // The log adapter is what is left when neither a provider nor the webhook is set.
    if (adapters[channel].name !== 'log') continue;
    const types = Object.keys(CHANNELS_OF).filter((t) => CHANNELS_OF[t]!.includes(channel));
    const [row] = await database.db
      .select({ n: count() })
      .from(alarmPhones)
      .where(and(eq(alarmPhones.status, 'open'), inArray(alarmPhones.alarmType, types)));
    const n = row?.n ?? 0;
    if (n === 0) continue;
    const w = WHAT[channel];
    const line = `${n} open alarm phone entr${n === 1 ? 'y asks' : 'ies ask'} for ${w.asks}, but no provider or webhook can reach them (${NO_PROVIDER}): set ${w.set} or ROOST_NOTIFY_WEBHOOK_URL`;
    log.warn(line);
    said.push(line);
  }
  return said;
}
