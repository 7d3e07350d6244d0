import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import { alarmPlaceSchema, type AlarmPlace } from '../contract/alarms';
import {
  farmDaySchema,
  houseMonthSchema,
  type DayRecordInput,
  type FarmDay,
  type HouseMonth,
} from '../contract/production';
import {
  draftOf,
  inputOf,
  isBlank,
  pasteInto,
  type CellError,
  type Draft,
  type GridColumn,
} from './productionGrid';

const placesSchema = z.array(alarmPlaceSchema);
const savedSchema = z.object({ saved: z.number() });

/**
 * The data input page: a farm's day for all its houses (drafts as typed, cell errors) and one
 * house's month. Only that page shows them, so it makes its own store.
 */
export class DataInputStore {
  places: AlarmPlace[] = [];
  farmId: number | null = null;
  day: string;
  grid: FarmDay | null = null;
  /** The day the grid shows (`grid` answers for it): a later day's answer never lands on another. */
  gridDay: string | null = null;
  drafts: Draft[] = [];
  /** `row:column` → why the cell is refused. */
  errors = new Map<string, CellError>();
  monthHouseId: number | null = null;
  month: HouseMonth | null = null;
  saving = false;

  constructor(
    private readonly api: ApiClient,
    today: string,
  ) {
    this.day = today;
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  /** The farms of the scope, by name, each once. */
  get farms(): Array<{ id: number; name: string }> {
    const byId = new Map(this.places.map((p) => [p.farmId, p.farmName]));
    return [...byId]
      .map(([id, name]) => ({ id, name }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async loadPlaces(): Promise<void> {
    const places = await this.api.get('/alarm/places', { schema: placesSchema });
    runInAction(() => {
      this.places = places;
      if (this.farmId === null) this.farmId = this.farms[0]?.id ?? null;
    });
    await this.loadDay();
  }

  async choose(farmId: number | null, day: string): Promise<void> {
    this.farmId = farmId;
    this.day = day;
    await this.loadDay();
  }

  async loadDay(): Promise<void> {
    if (this.farmId === null) return;
    const { farmId, day } = this;
    const grid = await this.api.get(`/production/day?farmId=${farmId}&day=${day}`, {
      schema: farmDaySchema,
    });
    // Answers may cross when the day is changed quickly: only the one asked last is shown.
    if (farmId !== this.farmId || day !== this.day) return;
    runInAction(() => {
      this.grid = grid;
      this.gridDay = day;
      this.drafts = grid.rows.map((r) => draftOf(r.record));
      this.errors = new Map();
      const first = grid.rows.find((r) => r.flockId !== null);
      if (this.monthHouseId === null || !grid.rows.some((r) => r.houseId === this.monthHouseId))
        this.monthHouseId = first?.houseId ?? null;
    });
    await this.loadMonth();
  }

  async loadMonth(houseId = this.monthHouseId): Promise<void> {
    this.monthHouseId = houseId;
    if (houseId === null) return;
    const month = await this.api.get(
      `/production/month?houseId=${houseId}&month=${this.day.slice(0, 7)}`,
      { schema: houseMonthSchema },
    );
    runInAction(() => (this.month = month));
  }

  edit(row: number, column: GridColumn, value: string): void {
    const draft = this.drafts[row];
    if (!draft) return;
    this.drafts[row] = { ...draft, [column]: value };
    this.errors.delete(`${row}:${column}`);
  }

  paste(row: number, column: number, block: string[][]): void {
    this.drafts = pasteInto(this.drafts, row, column, block);
    this.errors = new Map();
  }

  /** Checks every row with a flock and something typed; answers false (cells marked) if any is refused. */
  collect(): DayRecordInput[] | null {
    const grid = this.grid;
    if (!grid) return null;
    const errors = new Map<string, CellError>();
    const inputs: DayRecordInput[] = [];
    grid.rows.forEach((row, i) => {
      const draft = this.drafts[i];
      if (!draft || row.flockId === null || isBlank(draft)) return;
      const { input, errors: cells } = inputOf(draft, row.houseId, grid.day);
      for (const [field, why] of Object.entries(cells)) errors.set(`${i}:${field}`, why);
      if (input) inputs.push(input);
    });
    this.errors = errors;
    return errors.size > 0 ? null : inputs;
  }

  /**
   * The day's records to send, or null with the refused cells marked: the page checks before it
   * asks "Save the changes?", so an empty required value shows its message without the question.
   */
  validate(): DayRecordInput[] | null {
    const records = this.collect();
    if (records === null) return null;
    if (records.length === 0) {
      // Nothing typed: the required cells of the first house with a flock say what is missing.
      const first = this.grid?.rows.findIndex((r) => r.flockId !== null) ?? -1;
      if (first >= 0 && this.grid)
        this.errors = new Map(
          Object.entries(inputOf(this.drafts[first]!, 0, this.grid.day).errors).map(([f, why]) => [
            `${first}:${f}`,
            why,
          ]),
        );
      return null;
    }
    return records;
  }

  /** Saves the day; answers how many houses were saved, or null when cells are refused. */
  async save(): Promise<number | null> {
    const records = this.validate();
    if (records === null) return null;
    this.saving = true;
    try {
      const { saved } = await this.api.post('/production/day', {
        body: { records },
        schema: savedSchema,
      });
      await this.loadDay();
      return saved;
    } finally {
      runInAction(() => (this.saving = false));
    }
  }
}
