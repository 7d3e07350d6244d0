import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import {
  breedWarningAnswerSchema,
  DEFAULT_WARNING_LIMITS,
  EARLY_WARNINGS,
  houseWarningAnswerSchema,
  WARNING_LIMIT_FIELD,
  WARNING_LIMIT_RANGE,
  type EarlyWarning,
  type ResolvedWarningLimits,
  type WarningLimitField,
  type WarningLimits,
} from '../contract/earlyWarnings';
import { LatestAsk } from './latestAsk';

/** Whose limits are edited: a breed's (the default of its flocks) or a house's override. */
export type WarningTarget = { kind: 'breed'; breedId: number } | { kind: 'house'; houseId: number };

const savedSchema = z.unknown();

/**
 * The early-warning limits of one breed or house as a draft: each warning's switch and limit,
 * an empty limit meaning "as inherited" (the breed's for a house, Roost's default for a breed).
 */
export class WarningLimitsStore {
  /** The switches as set here; a missing one is inherited. */
  enabled: Partial<Record<EarlyWarning, boolean>> = {};
  /** Limits as typed, so an emptied field stays empty. */
  text: Record<WarningLimitField, string> = {
    waterDropPct: '',
    feedOffPct: '',
    gainRatioPct: '',
    feedBinHours: '',
  };
  /** What an unset field falls back to. */
  inherited: ResolvedWarningLimits = DEFAULT_WARNING_LIMITS;
  /** The breed a house's limits fall back to (null: no flock, Roost's defaults). */
  breedName: string | null = null;
  loaded = false;
  /** The form's first read may answer after the one behind a save: only the latest fills it. */
  private readonly latest = new LatestAsk();

  constructor(
    private readonly api: ApiClient,
    readonly target: WarningTarget,
  ) {
    makeAutoObservable<this, 'api' | 'latest'>(this, { api: false, target: false, latest: false });
  }

  async load(): Promise<void> {
    const asked = this.latest.ask();
    if (this.target.kind === 'breed') {
      const answer = await this.api.get(
        `/production/warnings/breed?breedId=${this.target.breedId}`,
        { schema: breedWarningAnswerSchema },
      );
      if (!this.latest.isLatest(asked)) return;
      runInAction(() => this.fill(answer.limits, DEFAULT_WARNING_LIMITS, null));
    } else {
      const answer = await this.api.get(
        `/production/warnings/house?houseId=${this.target.houseId}`,
        { schema: houseWarningAnswerSchema },
      );
      if (!this.latest.isLatest(asked)) return;
      runInAction(() => this.fill(answer.limits, answer.inherited, answer.breed?.name ?? null));
    }
  }

  private fill(own: WarningLimits, inherited: ResolvedWarningLimits, breedName: string | null) {
    this.inherited = inherited;
    this.breedName = breedName;
    this.enabled = {};
    for (const w of EARLY_WARNINGS) {
      if (own[w] !== undefined) this.enabled[w] = own[w];
      const field = WARNING_LIMIT_FIELD[w];
      this.text[field] = own[field] === undefined ? '' : String(own[field]);
    }
    this.loaded = true;
  }

  isOn(w: EarlyWarning): boolean {
    return this.enabled[w] ?? this.inherited[w];
  }

  setOn(w: EarlyWarning, on: boolean): void {
    this.enabled[w] = on;
  }

  setLimit(field: WarningLimitField, text: string): void {
    this.text[field] = text;
  }

  /** Back to what is inherited: every switch and limit unset. */
  clear(): void {
    this.enabled = {};
    for (const w of EARLY_WARNINGS) this.text[WARNING_LIMIT_FIELD[w]] = '';
  }

  /** Limit fields typed but not a number in their range: the card marks them, and no save. */
  get invalid(): WarningLimitField[] {
    return EARLY_WARNINGS.map((w) => WARNING_LIMIT_FIELD[w]).filter((field) => {
      const text = this.text[field].trim();
      if (text === '') return false;
      const value = Number(text);
      const [min, max] = WARNING_LIMIT_RANGE[field];
      return !Number.isFinite(value) || value < min || value > max;
    });
  }

  get draft(): WarningLimits {
    const out: Record<string, number | boolean> = { ...this.enabled };
    for (const w of EARLY_WARNINGS) {
      const field = WARNING_LIMIT_FIELD[w];
      const text = this.text[field].trim();
      if (text !== '') out[field] = Number(text);
    }
    return out as WarningLimits;
  }

  async save(): Promise<void> {
    const body =
      this.target.kind === 'breed'
        ? { breedId: this.target.breedId, limits: this.draft }
        : { houseId: this.target.houseId, limits: this.draft };
    await this.api.put(`/production/warnings/${this.target.kind}`, { body, schema: savedSchema });
    await this.load();
  }
}
