import { describe, expect, it } from 'vitest';
import type { Reminder } from '../../src/contract/reminders';
import { reminderText } from '../../src/console/reminders/RemindersPanel';
import { remindersByKind } from '../../src/stores/RemindersStore';

const reminder = (over: Partial<Reminder>): Reminder => ({
  kind: 'alarm',
  id: 'x',
  houseId: 1,
  houseName: 'House 1',
  farmName: 'Farm',
  at: '2026-11-23T08:00:00.000Z',
  text: 'alarms.reminder.unacknowledged',
  params: {},
  overdue: false,
  ...over,
});

describe("the day's reminders in the console", () => {
  it('translates a value named …Key before it goes into the sentence', () => {
    const texts: Record<string, string> = {
      'alarms.cause.offline': 'Gateway offline',
      'alarms.reminder.unacknowledged': '{{cause}} since {{hours}} h',
    };
    const t = (key: string, values?: Record<string, unknown>) =>
      (texts[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, n: string) => String(values?.[n]));
    const text = reminderText(
      t,
      reminder({ params: { causeKey: 'alarms.cause.offline', hours: 3 } }),
    );
    expect(text).toBe('Gateway offline since 3 h');
  });

  it('groups by kind in the fixed order, overdue first, then oldest first', () => {
    const groups = remindersByKind([
      reminder({ id: 'b', kind: 'task', at: '2026-11-23T09:00:00.000Z' }),
      reminder({ id: 'a', at: '2026-11-23T07:00:00.000Z' }),
      reminder({ id: 'c', at: '2026-11-23T08:00:00.000Z', overdue: true }),
    ]);
    expect(groups.map(([kind, list]) => [kind, list.map((r) => r.id)])).toEqual([
      ['alarm', ['c', 'a']],
      ['task', ['b']],
    ]);
  });
});
