import { useState } from 'react';

export interface DraftText {
  /** What the box shows: the person's text as typed, until the box is left. */
  draft: string;
  /** The draft read as a value: '' while empty, null while it reads as none. */
  parsed: string | null;
  /** The person typed `text`: the value changes as soon as it reads as one that is accepted. */
  type(text: string): void;
  /** The box was left: it shows the value held, written in its own form again. */
  settle(): void;
}

/**
 * The text behind a box that holds a value typed in a form of its own (a date, a time of day):
 * a value set from outside (a reset, the calendar, a page choosing today) replaces the text;
 * one that came from the text itself leaves it as typed (2026-11-2 on the way to 2026-11-23,
 * 22 on the way to 22:00). The date and the time input share it, so the two cannot drift.
 */
export function useDraftText(
  value: string,
  onChange: (value: string) => void,
  read: (text: string) => string | null,
  write: (value: string) => string,
  accepts: (value: string) => boolean = () => true,
): DraftText {
  const [draft, setDraft] = useState(() => write(value));
  const [shownValue, setShownValue] = useState(value);
  const readText = (text: string) => (text.trim() === '' ? '' : read(text));
  if (value !== shownValue) {
    setShownValue(value);
    if (readText(draft) !== value) setDraft(write(value));
  }
  return {
    draft,
    parsed: readText(draft),
    type: (text) => {
      setDraft(text);
      const next = readText(text);
      if (next !== null && accepts(next) && next !== value) onChange(next);
    },
    settle: () => setDraft(write(value)),
  };
}
