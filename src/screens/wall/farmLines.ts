import { type WallState } from '../../contract/wall';
import { eachWorstFarm, type FarmView } from './wallModel';

/** One line's element and what it shows now. */
interface Line {
  item: HTMLLIElement;
  text: Text;
  farmId: number;
  /** The farm's name as last written: the text is built again only when it or the state changed. */
  name: string | null;
  state: WallState | null;
  pulsing: boolean | null;
}

/**
 * The screen reader's list of the gravest farms ("Farm 12: Alarm"), written into its list
 * outside React, line by line, touching only what changed. In an alarm storm at 10,000 farms
 * the 200 lines change each second; React's render, comparison and commit of them was the
 * largest part of the wall's React work each second (bench/wall.ts). Lines are kept by place,
 * not by farm: when alarms move between farms, lines change their text instead of being removed
 * and made again. A new language takes a new FarmLines, after `clear()` of the old.
 */
export class FarmLines {
  private readonly lines: Line[] = [];

  constructor(
    private readonly list: HTMLUListElement,
    private readonly stateName: Record<WallState, string>,
  ) {}

  /** Shows the worst `max` of these farms (eachWorstFarm's order). */
  show(views: readonly FarmView[], max: number): void {
    const shown = eachWorstFarm(views, max, this.write);
    while (this.lines.length > shown) this.lines.pop()!.item.remove();
  }

  private readonly write = (farm: FarmView, place: number): void => {
    const line = this.lines[place] ?? this.make(place);
    const { dataset } = line.item;
    const state = farm.worstState;
    if (line.farmId !== farm.farmId) {
      dataset.farmId = String(farm.farmId);
      line.farmId = farm.farmId;
    }
    if (line.pulsing !== farm.pulsing) {
      dataset.pulsing = String(farm.pulsing);
      line.pulsing = farm.pulsing;
    }
    // Most lines show what they showed a second ago: no new string for them (200 a second).
    if (line.state === state && line.name === farm.name) return;
    if (line.state !== state) {
      dataset.state = state;
      line.state = state;
    }
    line.name = farm.name;
    line.text.data = `${farm.name}: ${this.stateName[state]}`;
  };

  /** Removes every line (the language changed, or the list unmounts). */
  clear(): void {
    for (const line of this.lines) line.item.remove();
    this.lines.length = 0;
  }

  private make(index: number): Line {
    const item = document.createElement('li');
    const text = document.createTextNode('');
    item.append(text);
    this.list.append(item);
    const line: Line = { item, text, farmId: NaN, name: null, state: null, pulsing: null };
    this.lines[index] = line;
    return line;
  }
}
