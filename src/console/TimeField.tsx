import { InputGroup, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseClockText } from '../i18n/dates';

export interface TimeFieldProps {
  id?: string;
  /** `22:00` (24-hour clock); '' when empty. */
  value: string;
  onChange(value: string): void;
  disabled?: boolean;
  'aria-label'?: string;
  'data-testid'?: string;
}

/**
 * A time of day on the 24-hour clock, in place of `<input type="time">`: Chromium shows that in
 * the browser's own form (10:00 PM in an English browser) while every table of the console says
 * 22:00. Takes 22:00, 2200, 22.00 or 22：00 and hands on `HH:MM` once the text is a time.
 */
export function TimeField({
  id,
  value,
  onChange,
  disabled,
  'aria-label': ariaLabel,
  'data-testid': testId,
}: TimeFieldProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  // A value set from outside replaces the draft; one that came from the draft leaves it as typed.
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    if ((draft.trim() === '' ? '' : parseClockText(draft)) !== value) setDraft(value);
  }
  const invalid = draft.trim() !== '' && parseClockText(draft) === null;
  const type = (text: string) => {
    setDraft(text);
    const next = text.trim() === '' ? '' : parseClockText(text);
    if (next !== null && next !== value) onChange(next);
  };
  return (
    <InputGroup
      id={id}
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
      onBlur={() => setDraft(value)}
    />
  );
}
