import type { i18n } from 'i18next';
import { ALARM_CAUSES } from '../contract/alarms';
import { metricLabel } from '../contract/metrics';

/**
 * The operation log's recorded texts in a reader's language, for the console's table and the
 * server's exports alike.
 */

/** A logged function ('user.save') by name; one not in the table as recorded. */
export function functionLabel(i18next: i18n, fn: string): string {
  const key = `admin.log.functions.${fn}`;
  return /^[\w.]+$/.test(fn) && i18next.exists(key) ? i18next.t(key as never) : fn;
}

/** What the alarm lifecycle records: `<cause>[ <subject>] #<alarm id>`. */
const ALARM_OPERATION = /^(\w+)(?: (\S+))? #(\d+)$/;
/** The server's fixed operation texts are plain words; only those are looked up. */
const FIXED_OPERATION = /^[a-z][a-z -]*$/;

/**
 * A recorded operation in the reader's language: the server writes fixed English texts
 * ('update farm') and, for alarms, the cause and the alarm's number; anything else (a phone
 * number, a DI code) is shown as recorded.
 */
export function operationLabel(i18next: i18n, operation: string): string {
  const key = `admin.log.operations.${operation}`;
  if (FIXED_OPERATION.test(operation) && i18next.exists(key)) return i18next.t(key as never);
  const alarm = ALARM_OPERATION.exec(operation);
  const cause = alarm?.[1];
  if (alarm && cause && (ALARM_CAUSES as readonly string[]).includes(cause)) {
    const lang = i18next.language.startsWith('zh') ? 'zh' : 'en';
    const subject = alarm[2] ? metricLabel(alarm[2], lang) : null;
    const name = i18next.t(`alarms.cause.${cause}` as never);
    return `${name}${subject ? ` · ${subject}` : ''} #${alarm[3]}`;
  }
  return operation;
}
