import { action, makeObservable, observableRef } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import {
  REMINDER_KINDS,
  remindersSchema,
  type Reminder,
  type ReminderKind,
} from '../contract/reminders';

/**
 * The day's reminders (GET /reminder/today) for the whole scope or one house. Kept per key
 * (`all` or the house id) so the home page and a monitor tab do not overwrite each other.
 */
export class RemindersStore {
  /** Null until the first answer for that key. */
  byKey = new Map<string, readonly Reminder[]>();
  /** Answers may cross: only the newest call's answer per key is kept. */
  private latestCall = new Map<string, number>();

  constructor(private readonly api: ApiClient) {
    makeObservable<RemindersStore, 'setRows'>(this, { byKey: observableRef, setRows: action });
  }

  rowsOf(houseId?: number): readonly Reminder[] | null {
    return this.byKey.get(keyOf(houseId)) ?? null;
  }

  /** Fetches the reminders; a failure keeps what was shown (and the client toasts it). */
  async load(houseId?: number): Promise<void> {
    const key = keyOf(houseId);
    const call = (this.latestCall.get(key) ?? 0) + 1;
    this.latestCall.set(key, call);
    const query = houseId === undefined ? '' : `?houseId=${houseId}`;
    try {
      const { rows } = await this.api.get(`/reminder/today${query}`, { schema: remindersSchema });
      if (this.latestCall.get(key) === call) this.setRows(key, rows);
    } catch {
      // Kept as they were; the page's next load tries again.
    }
  }

  /**
   * Marks one of the day's flock tasks done or skipped, with the user's note, then reloads the
   * reminders of that key (the home page's or one house's). Throws the server's refusal.
   */
  async decideTask(
    task: Reminder,
    state: 'done' | 'skipped',
    note: string,
    houseId?: number,
  ): Promise<void> {
    await this.api.post('/production/task', {
      body: {
        flockId: Number(task.params.flockId),
        ageDay: Number(task.params.ageDay),
        content: String(task.params.content),
        state,
        note,
      },
      schema: taskStateSchema,
    });
    await this.load(houseId);
  }

  reset(): void {
    this.latestCall.clear();
    this.setRows(null, []);
  }

  private setRows(key: string | null, rows: readonly Reminder[]): void {
    const next = new Map(key === null ? [] : this.byKey);
    if (key !== null) next.set(key, rows);
    this.byKey = next;
  }
}

const taskStateSchema = z.object({ state: z.string() });

const keyOf = (houseId?: number) => (houseId === undefined ? 'all' : String(houseId));

/** Reminders grouped by kind in the console's order, overdue first, then by time. */
export function remindersByKind(rows: readonly Reminder[]): Array<[ReminderKind, Reminder[]]> {
  return REMINDER_KINDS.map((kind): [ReminderKind, Reminder[]] => [
    kind,
    rows
      .filter((r) => r.kind === kind)
      .sort((a, b) => Number(b.overdue) - Number(a.overdue) || a.at.localeCompare(b.at)),
  ]).filter(([, list]) => list.length > 0);
}
