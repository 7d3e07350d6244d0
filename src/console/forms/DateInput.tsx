import { Button, InputGroup, Intent, PopoverNext } from '@blueprintjs/core';
import { CalendarIcon, ChevronLeftIcon, ChevronRightIcon } from '@blueprintjs/icons';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_FORMS, fieldText, formatDate, parseDateText } from '../../i18n/dates';
import { useDraftText } from './useDraftText';

export interface DateInputProps {
  id?: string;
  name?: string;
  /** `2026-11-23`, or with `withTime` `2026-11-23T14:03`; '' when empty. */
  value: string;
  onChange(value: string): void;
  /** Takes a time as well (replaces `datetime-local`). */
  withTime?: boolean;
  /** The earliest and latest day that may be chosen (`2026-11-23`). */
  min?: string;
  max?: string;
  disabled?: boolean;
  fill?: boolean;
  'aria-label'?: string;
  'data-testid'?: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The console's date input, in place of `<input type="date">`: Chromium writes a native date
 * input in the browser's order (mm/dd/yyyy in an English browser) whatever the console's
 * language, so a picker disagreed with every table beside it. This one shows and takes the
 * date as src/i18n/dates.ts writes it (also 2026/11/23 or 2026年11月23日 typed), and opens a
 * month calendar named in the console's language.
 */
export function DateInput({
  id,
  name,
  value,
  onChange,
  withTime = false,
  min,
  max,
  disabled,
  fill,
  'aria-label': ariaLabel,
  'data-testid': testId,
}: DateInputProps) {
  const { t, i18n } = useTranslation();
  const forms = DATE_FORMS[i18n.language === 'zh' ? 'zh' : 'en'];
  const [open, setOpen] = useState(false);
  const calendarButton = useRef<HTMLButtonElement>(null);
  const outOfRange = (day: string) =>
    day !== '' && Boolean((min && day < min) || (max && day.slice(0, 10) > max));
  // A day outside the range is not handed on: the box says so and the value stays as it was.
  const { draft, parsed, type, settle } = useDraftText(
    value,
    onChange,
    (text) => parseDateText(text, withTime),
    fieldText,
    (day) => !outOfRange(day),
  );
  const invalid = parsed === null || outOfRange(parsed);
  const form = withTime ? forms.placeholderWithTime : forms.placeholder;

  const pick = (day: string) => {
    const time = withTime ? `T${value.split('T')[1] ?? '00:00'}` : '';
    onChange(day + time);
    setOpen(false);
  };

  return (
    <InputGroup
      id={id}
      name={name}
      value={draft}
      fill={fill}
      disabled={disabled}
      placeholder={form}
      aria-label={ariaLabel}
      aria-invalid={invalid || undefined}
      title={invalid ? t('forms.date.invalid', { form }) : undefined}
      intent={invalid ? Intent.DANGER : Intent.NONE}
      data-testid={testId}
      data-date-field
      inputMode="numeric"
      autoComplete="off"
      className="roost-date-field"
      style={{ minWidth: withTime ? '11.5em' : '8.5em' }}
      onValueChange={type}
      onBlur={settle}
      rightElement={
        <PopoverNext
          isOpen={open}
          onInteraction={setOpen}
          placement="bottom-end"
          disabled={disabled}
          // Blueprint gives focus back to this button once the calendar has faded out (300 ms),
          // even when the person has gone on to type in the field meanwhile: the typing then
          // went nowhere. Focus comes back only if it was still in the calendar when it closed.
          shouldReturnFocusOnClose={false}
          onClosed={(calendar) => {
            const active = document.activeElement;
            if (!active || active === document.body || calendar.contains(active)) {
              calendarButton.current?.focus();
            }
          }}
          content={
            <MonthCalendar
              value={value.slice(0, 10)}
              min={min}
              max={max}
              onPick={pick}
              forms={forms}
            />
          }
        >
          <Button
            ref={calendarButton}
            variant="minimal"
            icon={<CalendarIcon />}
            aria-label={t('forms.date.pick')}
            title={t('forms.date.pick')}
            disabled={disabled}
          />
        </PopoverNext>
      }
    />
  );
}

interface MonthCalendarProps {
  value: string;
  min?: string;
  max?: string;
  onPick(day: string): void;
  forms: (typeof DATE_FORMS)['en'];
}

/** One month, Monday first; each day a button named by its full date. */
function MonthCalendar({ value, min, max, onPick, forms }: MonthCalendarProps) {
  const { t } = useTranslation();
  const start = value ? new Date(`${value}T00:00`) : new Date();
  const [shown, setShown] = useState({ year: start.getFullYear(), month: start.getMonth() + 1 });
  const today = formatDate(new Date());
  const first = new Date(shown.year, shown.month - 1, 1);
  const lead = (first.getDay() + 6) % 7;
  const days = new Date(shown.year, shown.month, 0).getDate();
  const cells: Array<string | null> = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length: days }, (_, i) => `${shown.year}-${pad(shown.month)}-${pad(i + 1)}`),
  ];
  const step = (by: number) =>
    setShown(({ year, month }) => {
      const m = month - 1 + by;
      return { year: year + Math.floor(m / 12), month: (((m % 12) + 12) % 12) + 1 };
    });
  return (
    <div className="roost-calendar" data-testid="date-calendar">
      <div className="roost-calendar__head">
        <Button
          variant="minimal"
          icon={<ChevronLeftIcon />}
          aria-label={t('forms.date.previousMonth')}
          onClick={() => step(-1)}
        />
        <strong aria-live="polite">{forms.month(shown.year, shown.month)}</strong>
        <Button
          variant="minimal"
          icon={<ChevronRightIcon />}
          aria-label={t('forms.date.nextMonth')}
          onClick={() => step(1)}
        />
      </div>
      <div className="roost-calendar__grid">
        {forms.weekdays.map((w) => (
          <span key={w} className="roost-calendar__weekday" aria-hidden>
            {w}
          </span>
        ))}
        {cells.map((day, i) =>
          day === null ? (
            <span key={`lead-${i}`} />
          ) : (
            <Button
              key={day}
              variant={day === value ? 'solid' : 'minimal'}
              intent={day === value ? Intent.PRIMARY : Intent.NONE}
              className={day === today ? 'roost-calendar__today' : undefined}
              aria-label={formatDate(day)}
              aria-pressed={day === value}
              disabled={(min !== undefined && day < min) || (max !== undefined && day > max)}
              text={Number(day.slice(8))}
              onClick={() => onPick(day)}
            />
          ),
        )}
      </div>
    </div>
  );
}
