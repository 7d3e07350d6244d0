import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import { alarmPlaceSchema, type AlarmPhone, type AlarmPlace } from '../contract/alarms';
import { alarmPhoneSchema } from '../contract/adminAnswers';
import { pagedSchema } from '../contract/paged';
import { silenceSchema, type Silence, type SilenceInput } from '../contract/notify';
import {
  drillReportSchema,
  drillScheduleRowSchema,
  drillSummarySchema,
  type DrillReport,
  type DrillScheduleInput,
  type DrillScheduleRow,
  type DrillSummary,
} from '../contract/notifyDrill';
import { myPrefsSchema, type MyPrefs, type NotifyPrefsInput } from '../contract/notifyPrefs';
import { LatestAsk } from './latestAsk';

const placesSchema = z.array(alarmPlaceSchema);

/** The farms and houses in the user's scope: where silences, drills and entries may be. */
async function placesOf(api: ApiClient): Promise<AlarmPlace[]> {
  return api.get('/alarm/places', { schema: placesSchema });
}

/** The silences page: current (and planned) silences or every one, made and ended here. */
export class SilencesStore {
  rows: Silence[] | null = null;
  places: AlarmPlace[] = [];
  showAll = false;
  /** The page's first read, a toggle's and a change's may cross: the latest says what is now. */
  private readonly latest = new LatestAsk();

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api' | 'latest'>(this, { api: false, latest: false });
  }

  async load(): Promise<void> {
    const asked = this.latest.ask();
    const [places, list] = await Promise.all([
      placesOf(this.api),
      this.api.get('/notify/silence/list', {
        query: { state: this.showAll ? 'all' : 'current' },
        schema: pagedSchema(silenceSchema),
      }),
    ]);
    if (!this.latest.isLatest(asked)) return;
    runInAction(() => {
      this.places = places;
      this.rows = list.rows;
    });
  }

  async setShowAll(all: boolean): Promise<void> {
    this.showAll = all;
    await this.load();
  }

  async create(input: SilenceInput): Promise<Silence> {
    const made = await this.api.post('/notify/silence/create', {
      body: input,
      schema: silenceSchema,
    });
    await this.load();
    return made;
  }

  async end(id: number): Promise<void> {
    await this.api.post('/notify/silence/end', { body: { id }, schema: silenceSchema });
    await this.load();
  }
}

const levelsSchema = pagedSchema(z.object({ phoneId: z.number(), level: z.number() }));

/** The escalation page: alarm phone entries in the order they are called, and their levels. */
export class EscalationStore {
  phones: AlarmPhone[] | null = null;
  levels = new Map<number, number>();
  /** The page's first read and one behind a change may cross: the latest says what is now. */
  private readonly latest = new LatestAsk();

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api' | 'latest'>(this, { api: false, latest: false });
  }

  async load(): Promise<void> {
    const asked = this.latest.ask();
    const [phones, levels] = await Promise.all([
      this.api.get('/alarmPhone/list', { schema: pagedSchema(alarmPhoneSchema) }),
      this.api.get('/notify/escalation/list', { schema: levelsSchema }),
    ]);
    if (!this.latest.isLatest(asked)) return;
    runInAction(() => {
      this.phones = phones.rows;
      this.levels = new Map(levels.rows.map((r) => [r.phoneId, r.level]));
    });
  }

  levelOf(phoneId: number): number {
    return this.levels.get(phoneId) ?? 0;
  }

  /** Entries by farm, house, then level: the order a house's alarm calls them in. */
  get ordered(): AlarmPhone[] {
    return [...(this.phones ?? [])].sort(
      (a, b) =>
        a.farmName.localeCompare(b.farmName) ||
        (a.houseName ?? '').localeCompare(b.houseName ?? '') ||
        this.levelOf(a.id) - this.levelOf(b.id) ||
        a.id - b.id,
    );
  }

  async save(phoneId: number, level: number): Promise<void> {
    await this.api.post('/notify/escalation/save', {
      body: { phoneId, level },
      schema: z.object({ phoneId: z.number(), level: z.number() }),
    });
    runInAction(() => this.levels.set(phoneId, level));
  }
}

/** The user's own notification preferences. */
export class PrefsStore {
  mine: MyPrefs | null = null;

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  async load(): Promise<void> {
    const mine = await this.api.get('/notify/prefs/mine', { schema: myPrefsSchema });
    runInAction(() => (this.mine = mine));
  }

  async save(prefs: NotifyPrefsInput): Promise<void> {
    const mine = await this.api.post('/notify/prefs/save', {
      body: prefs,
      schema: myPrefsSchema,
    });
    runInAction(() => (this.mine = mine));
  }
}

/** The drills page: start or schedule a drill for a house, the drills so far, one's report. */
export class DrillsStore {
  places: AlarmPlace[] = [];
  drills: DrillSummary[] | null = null;
  schedules: DrillScheduleRow[] = [];
  report: DrillReport | null = null;

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  async load(): Promise<void> {
    const [places, drills, schedules] = await Promise.all([
      placesOf(this.api),
      this.api.get('/notify/drill/list', { schema: pagedSchema(drillSummarySchema) }),
      this.api.get('/notify/drill/schedules', { schema: pagedSchema(drillScheduleRowSchema) }),
    ]);
    runInAction(() => {
      this.places = places;
      this.drills = drills.rows;
      this.schedules = schedules.rows;
    });
  }

  async start(houseId: number): Promise<DrillSummary> {
    const drill = await this.api.post('/notify/drill/start', {
      body: { houseId },
      schema: drillSummarySchema,
    });
    await this.load();
    return drill;
  }

  async schedule(input: DrillScheduleInput): Promise<void> {
    await this.api.post('/notify/drill/schedule', { body: input });
    await this.load();
  }

  async openReport(id: number | null): Promise<void> {
    if (id === null) {
      this.report = null;
      return;
    }
    const report = await this.api.get('/notify/drill/report', {
      query: { id },
      schema: drillReportSchema,
    });
    runInAction(() => (this.report = report));
  }
}
