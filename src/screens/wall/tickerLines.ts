import { Classes } from '@blueprintjs/core';
import { type AlarmCause } from '../../contract/alarms';
import { formatClock } from '../../i18n/dates';
import { type AlarmChange } from './wallModel';
import { type TickerEntry } from './WallStore';

/** The ticker's few fixed words (a cause, raised, cleared), translated once per language. */
export interface TickerLabels {
  cause: Record<AlarmCause, string>;
  kind: Record<AlarmChange['kind'], string>;
}

/** One line's elements and what they show, so that only what changed is written. */
interface Line {
  item: HTMLLIElement;
  time: Text;
  name: Text;
  cause: Text;
  kind: Text;
  shown: { at: number; houseId: number; houseName: string; cause: string; kind: string };
}

/**
 * The ticker's lines, written into its list outside React. A storm brings 40 new entries each
 * second; rewriting the text of 40 kept lines costs a fraction of React comparing and committing
 * 40 rows (bench/wall.ts). A line reads "14:03:05 House 3 Ammonia too high raised".
 */
export class TickerLines {
  private readonly lines: Line[] = [];

  constructor(private readonly list: HTMLUListElement) {}

  show(entries: readonly TickerEntry[], labels: TickerLabels): void {
    for (let i = 0; i < entries.length; i += 1) {
      const entry = entries[i]!;
      const line = this.lines[i] ?? this.make(i);
      const shown = line.shown;
      if (shown.at !== entry.at) {
        line.time.data = formatClock(entry.at);
        shown.at = entry.at;
      }
      if (shown.houseName !== entry.houseName) {
        line.name.data = entry.houseName;
        shown.houseName = entry.houseName;
      }
      const cause = entry.cause && entry.kind === 'raised' ? labels.cause[entry.cause] + ' ' : '';
      if (shown.cause !== cause) {
        line.cause.data = cause;
        shown.cause = cause;
      }
      if (shown.kind !== entry.kind) {
        line.item.className = `roost-wall__tick roost-wall__tick--${entry.kind}`;
        line.item.dataset.kind = entry.kind;
        shown.kind = entry.kind;
      }
      const kindLabel = labels.kind[entry.kind];
      if (line.kind.data !== kindLabel) line.kind.data = kindLabel;
      if (shown.houseId !== entry.houseId) {
        line.item.dataset.houseId = String(entry.houseId);
        shown.houseId = entry.houseId;
      }
    }
    while (this.lines.length > entries.length) this.lines.pop()!.item.remove();
  }

  /** Removes every line (the ticker's labels changed, or it unmounts). */
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
    const line: Line = {
      item,
      time,
      name,
      cause,
      kind,
      shown: { at: NaN, houseId: NaN, houseName: '', cause: '', kind: '' },
    };
    this.lines[index] = line;
    return line;
  }
}
