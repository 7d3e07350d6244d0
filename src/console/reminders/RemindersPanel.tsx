import { Card, Classes, H5, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { type Reminder } from '../../contract/reminders';
import { remindersByKind } from '../../stores/RemindersStore';
import { formatTime } from '../houses/format';
import { useStores } from '../useStores';
import { TaskDecision } from './TaskDecision';
import './reminders.css';

/** How many reminders of one kind the panel lists before "n more". */
const ROWS_PER_KIND = 5;

type AnyText = (key: string, options?: Record<string, unknown>) => string;

/**
 * A reminder's sentence in the reader's language. Its text key and the keys among its values
 * come from the server; a value named `…Key` is translated first (`causeKey` → `cause`).
 */
export function reminderText(t: AnyText, reminder: Reminder): string {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(reminder.params)) {
    if (name.endsWith('Key') && typeof value === 'string') values[name.slice(0, -3)] = t(value);
    else values[name] = value;
  }
  return t(reminder.text, values);
}

export interface RemindersPanelProps {
  /** Only this house's reminders (the monitor); the whole scope when absent (home). */
  houseId?: number;
}

/** The day's reminders, grouped by kind, overdue first. Loaded when shown. */
export const RemindersPanel = observer(function RemindersPanel({ houseId }: RemindersPanelProps) {
  const { reminders, alarms, session } = useStores();
  const { t } = useTranslation();
  const text = t as unknown as AnyText;
  // Alarms are the one kind that changes by the minute: reload when the live count moves.
  const alarmsSeen = alarms.activeCount + alarms.byId.size;
  useEffect(() => void reminders.load(houseId), [reminders, houseId, alarmsSeen]);
  const rows = reminders.rowsOf(houseId);
  const groups = rows === null ? [] : remindersByKind(rows);
  return (
    <Card data-testid="reminders">
      <H5>{t('reminders.title')}</H5>
      {rows === null ? (
        <p className={Classes.TEXT_MUTED}>—</p>
      ) : groups.length === 0 ? (
        <p className={Classes.TEXT_MUTED} data-testid="reminders-none">
          {t('reminders.none')}
        </p>
      ) : (
        groups.map(([kind, list]) => (
          <section key={kind} className="roost-reminders__kind" data-testid={`reminders-${kind}`}>
            <h6 className={Classes.HEADING}>
              {t(`reminders.kind.${kind}`)}{' '}
              <Tag minimal round>
                {list.length}
              </Tag>
            </h6>
            <ul className="roost-reminders__list">
              {list.slice(0, ROWS_PER_KIND).map((r) => (
                <li key={r.id} data-testid="reminder" data-overdue={r.overdue}>
                  {r.overdue && (
                    <Tag minimal intent="danger" className="roost-reminders__overdue">
                      {t('reminders.overdue')}
                    </Tag>
                  )}
                  {houseId === undefined && (
                    <span className="roost-reminders__house">
                      {r.farmName} · {r.houseName}
                    </span>
                  )}
                  <span>{reminderText(text, r)}</span>
                  <span className={Classes.TEXT_MUTED}> {formatTime(Date.parse(r.at))}</span>
                  {r.kind === 'task' && session.canOperate && (
                    <TaskDecision task={r} houseId={houseId} />
                  )}
                </li>
              ))}
            </ul>
            {list.length > ROWS_PER_KIND && (
              <p className={Classes.TEXT_MUTED}>
                {t('reminders.more', { count: list.length - ROWS_PER_KIND })}
              </p>
            )}
          </section>
        ))
      )}
    </Card>
  );
});
