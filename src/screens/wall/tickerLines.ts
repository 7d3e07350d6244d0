import { Classes } from '@blueprintjs/core';
import { type AlarmCause } from '../../contract/alarms';
import { formatClock } from '../../i18n/dates';
import { type AlarmChange } from './wallModel';
import { type TickerEntry } from './tickerFeed';

/** The ticker's few fixed words (a cause, raised, cleared), translated once per language. */
export interface TickerLabels {
  cause: Record<AlarmCause, string>;
  kind: Record<AlarmChange['kind'], string>;
}

/** One line's elements, and the time it shows (formatted only when it changes). */
interface Line {
  item: HTMLLIElement;
  time: Text;
  name: Text;
  cause: Text;
  kind: Text;
  at: number;
}

/** Writes a text only when it differs: an unchanged line costs no style or layout. */
function write(text: Text, value: string): void {
  if (text.data !== value) text.data = value;
}

/**
 * The ticker's lines in one language, written into its list outside React. A storm brings 40
 * new entries each second; rewriting the text of 40 kept lines costs a fraction of React
 * comparing and committing 40 rows (bench/wall.ts). A line reads "14:03:05 House 3 Ammonia too
 * high raised". A new language takes a new TickerLines, after `clear()` of the old.
 */
export class TickerLines {
  private readonly lines: Line[] = [];

  constructor(
    private readonly list: HTMLUListElement,
    private readonly labels: TickerLabels,
    /** The zone the wall writes its times in (the deployment's), once known. */
    private readonly timeZone: () => string | null = () => null,
  ) {}

  show(entries: readonly TickerEntry[]): void {
    for (let i = 0; i < entries.length; i += 1) {
      const entry = entries[i]!;
      const line = this.lines[i] ?? this.make(i);
      if (line.at !== entry.at) {
        line.time.data = formatClock(entry.at, { timeZone: this.timeZone() ?? undefined });
        line.at = entry.at;
      }
      write(line.name, entry.houseName);
      write(
        line.cause,
        entry.cause && entry.kind === 'raised' ? this.labels.cause[entry.cause] + ' ' : '',
      );
      write(line.kind, this.labels.kind[entry.kind]);
      const { dataset } = line.item;
      if (dataset.kind !== entry.kind) {
        line.item.className = `roost-wall__tick roost-wall__tick--${entry.kind}`;
        dataset.kind = entry.kind;
      }
      const houseId = String(entry.houseId);
      if (dataset.houseId !== houseId) dataset.houseId = houseId;
    }
    while (this.lines.length > entries.length) this.lines.pop()!.item.remove();
  }

  /** Removes every line (the ticker's language changed, or it unmounts). */
  clear(): void {
    for (const line of this.lines) line.item.remove();
    this.lines.length = 0;
  }

  private make(index: number): Line {
    const item = document.createElement('li');
    const time = document.createTextNode('');
    const timeSpan = document.createElement('span');
    timeSpan.className = Classes.TEXT_MUTED;
    timeSpan.append(time);
    const name = document.createTextNode('');
    const strong = document.createElement('strong');
    strong.append(name);
    const cause = document.createTextNode('');
    const kind = document.createTextNode('');
    const kindSpan = document.createElement('span');
    kindSpan.className = 'roost-wall__tick-kind';
    kindSpan.append(kind);
    item.append(timeSpan, ' ', strong, ' ', cause, kindSpan);
    this.list.append(item);
    const line: Line = { item, time, name, cause, kind, at: NaN };
    this.lines[index] = line;
    return line;
  }
}
