import { asc, eq, ne, sql } from 'drizzle-orm';
import type { Alarm } from '../../src/contract/alarms';
import type { RoleKey } from '../../src/contract/roles';
import { canSeeHouse, scopeOf } from '../auth/scope';
import type { Db } from '../db/client';
import { notifyPrefs } from '../db/notifySchema';
import { users } from '../db/schema';

export interface MailRecipient {
  /** As written in the account or the list; compared without case. */
  mailbox: string;
  /** The account the mailbox is; null: a mailbox of ROOST_NOTIFY_EMAIL_TO that is nobody's. */
  userId: number | null;
}

/** Enough of an address to hand to SMTP: something@somewhere, no spaces or commas. */
const looksLikeMail = (v: string) => /^[^\s@,;<>]+@[^\s@,;<>]+$/.test(v);

/**
 * Who an alarm's e-mail goes to. E-mail recipients are people: every account with an e-mail
 * address that may see the alarm's house, unless their preferences leave out its farm, its
 * severity or the e-mail channel; and every mailbox of ROOST_NOTIFY_EMAIL_TO (an office's shared
 * box, chosen by whoever runs the installation). No alarm phone entry is needed. One mail per
 * address, whichever way it qualifies; quiet hours hold texts and calls, not mail, which
 * rings nobody awake and is read when the person looks.
 */
export async function mailRecipients(
  db: Db,
  alarm: Pick<Alarm, 'farmId' | 'houseId' | 'severity'>,
  listed: readonly string[],
): Promise<MailRecipient[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      roleKey: users.roleKey,
      scopeNodeId: users.scopeNodeId,
      farmIds: notifyPrefs.farmIds,
      severities: notifyPrefs.severities,
      channels: notifyPrefs.channels,
    })
    .from(users)
    .leftJoin(notifyPrefs, eq(notifyPrefs.userId, users.id))
    .where(ne(users.email, ''))
    .orderBy(asc(users.id));
  const out = new Map<string, MailRecipient>();
  for (const r of rows) {
    const mailbox = r.email.trim();
    if (!looksLikeMail(mailbox) || out.has(mailbox.toLowerCase())) continue;
    // Saved preferences speak for the person; none saved: everything (as DEFAULT_PREFS says).
    if (r.channels !== null) {
      if (!r.channels.includes('email')) continue;
      if (r.farmIds !== null && !r.farmIds.includes(alarm.farmId)) continue;
      if (r.severities !== null && !r.severities.includes(alarm.severity)) continue;
    }
    const scope = await scopeOf(db, {
      id: r.id,
      roleKey: r.roleKey as RoleKey,
      scopeNodeId: r.scopeNodeId,
    });
    if (!canSeeHouse(scope, alarm.houseId)) continue;
    out.set(mailbox.toLowerCase(), { mailbox, userId: r.id });
  }
  for (const m of listed) {
    const mailbox = m.trim();
    if (!looksLikeMail(mailbox) || out.has(mailbox.toLowerCase())) continue;
    const person = await accountOf(db, mailbox);
    out.set(mailbox.toLowerCase(), { mailbox, userId: person?.id ?? null });
  }
  return [...out.values()];
}

/** The account whose e-mail the mailbox is (the lowest id, should two share one). */
async function accountOf(db: Db, mailbox: string) {
  const [row] = await db
    .select({
      id: users.id,
      name: sql<string>`coalesce(nullif(${users.realName}, ''), ${users.username})`,
    })
    .from(users)
    .where(eq(sql`lower(trim(${users.email}))`, mailbox.trim().toLowerCase()))
    .orderBy(asc(users.id))
    .limit(1);
  return row ?? null;
}

/**
 * Who a mailed link acknowledges as: the account the mailbox is (its name, as the console's
 * acknowledge writes it), else the mailbox itself.
 */
export async function mailboxPerson(
  db: Db,
  mailbox: string,
): Promise<{ id: number | null; name: string }> {
  const person = await accountOf(db, mailbox);
  return person ?? { id: null, name: mailbox };
}
