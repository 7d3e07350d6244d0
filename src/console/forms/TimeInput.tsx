import { InputGroup, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { parseClockText } from '../../i18n/dates';
import { useDraftText } from './useDraftText';

export interface TimeInputProps {
  id?: string;
  name?: string;
  /** `22:00` (24-hour clock); '' when empty. */
  value: string;
  onChange(value: string): void;
  disabled?: boolean;
  'aria-label'?: string;
  'data-testid'?: string;
}

/** A time is written as it is held (HH:MM). */
const asHeld = (value: string) => value;

/**
 * A time of day on the 24-hour clock, in place of `<input type="time">`: Chromium shows that in
 * the browser's own form (10:00 PM in an English browser) while every table of the console says
 * 22:00. Takes 22:00, 2200, 22.00 or 22：00 and hands on `HH:MM` once the text is a time.
 */
export function TimeInput({
  id,
  name,
  value,
  onChange,
  disabled,
  'aria-label': ariaLabel,
  'data-testid': testId,
}: TimeInputProps) {
  const { t } = useTranslation();
  const { draft, parsed, type, settle } = useDraftText(value, onChange, parseClockText, asHeld);
  const invalid = parsed === null;
  return (
    <InputGroup
      id={id}
      name={name}
      value={draft}
      disabled={disabled}
      placeholder="HH:MM"
      aria-label={ariaLabel}
      aria-invalid={invalid || undefined}
      title={invalid ? t('forms.time.invalid') : undefined}
      intent={invalid ? Intent.DANGER : Intent.NONE}
      data-testid={testId}
      inputMode="numeric"
      autoComplete="off"
      style={{ width: '6em' }}
      onValueChange={type}
      onBlur={settle}
    />
  );
}
