import { makeAutoObservable, runInAction } from 'mobx';
import { z } from 'zod';
import { type ApiClient } from '../api/client';
import {
  checkParam,
  commandSchema,
  FINAL_STATES,
  gatewayDetailsSchema,
  paramChangeListSchema,
  paramsOfType,
  type Command,
  type GatewayDetails,
  type GatewayReported,
  type ParamChange,
  type ParamIssue,
  type ParamSpec,
} from '../contract/envcontrol';
import { upgradeFileSchema, type UpgradeFile } from '../contract/upgrade';
import { deviceLogListSchema, type DeviceLog } from '../contract/deviceLog';
import { LatestAsk } from './latestAsk';

const sentSchema = z.object({ commands: z.array(commandSchema) });
const upgradeSentSchema = z.object({
  commands: z.array(commandSchema),
  upToDate: z.array(z.number()),
});

/** The modify records' filters as the page holds them ('' = any); dates as ISO instants. */
export interface RecordFilters {
  /** Every house the user may see, not only this one. */
  allHouses: boolean;
  operator: string;
  key: string;
  source: '' | 'console' | 'local';
  from: string;
  to: string;
}

const NO_FILTERS: RecordFilters = {
  allHouses: false,
  operator: '',
  key: '',
  source: '',
  from: '',
  to: '',
};

/** How far a command has gone: it only moves forward (queued, sent, then a final state). */
const progressOf = (state: Command['state']): number =>
  FINAL_STATES.includes(state) ? 2 : state === 'sent' ? 1 : 0;

export interface ParamDiff {
  spec: ParamSpec;
  from: number | undefined;
  to: number;
}

/**
 * House Setting: one house's gateway, parameters and commands, the values being edited, and
 * the live command states (`applyCommand`, fed by the live connection). Edits are kept as
 * typed text, so an empty or half-typed value is shown as the user left it and refused here.
 */
export class EnvControlStore {
  houseId: number | null = null;
  details: GatewayDetails | null = null;
  /** True when the last load answered "not found" (outside the caller's scope). */
  missing = false;
  draft: Record<string, string> = {};
  records: ParamChange[] = [];
  recordsTotal = 0;
  recordFilters: RecordFilters = { ...NO_FILTERS };
  /** Values copied from a house, to paste into another. */
  clipboard: Record<string, number> | null = null;
  /** Upgrade files that may be sent (the upgrade dialog's choices). */
  upgradeFiles: UpgradeFile[] = [];
  /** The gateway's kept device logs, newest first, and whether one is being loaded. */
  deviceLogs: DeviceLog[] = [];
  loadingLog = false;
  /** Only the latest read of the house is taken: reads may cross (a send's "applied" reads again). */
  private readonly reads = new LatestAsk();
  /**
   * Command states applied while the latest read is on its way (null: none is). The read may
   * have been answered before they happened, so they are applied again over its answer.
   */
  private appliedDuringRead: Map<string, Command> | null = null;
  /** The gateway's reports heard while the latest read is on its way, for the same reason. */
  private reportsDuringRead: GatewayReported[] | null = null;

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<this, 'api' | 'reads' | 'appliedDuringRead' | 'reportsDuringRead'>(this, {
      api: false,
      reads: false,
      appliedDuringRead: false,
      reportsDuringRead: false,
    });
  }

  /** Parameters the house's gateway supports, in catalogue order. */
  get specs(): ParamSpec[] {
    const typeKey = this.details?.gateway?.typeKey;
    return typeKey === undefined ? [] : paramsOfType(typeKey);
  }

  /** Each edited value's problem, by key: the same rules the server applies. */
  get issues(): Record<string, ParamIssue> {
    const typeKey = this.details?.gateway?.typeKey;
    const issues: Record<string, ParamIssue> = {};
    if (typeKey === undefined) return issues;
    for (const [key, text] of Object.entries(this.draft)) {
      const value = text.trim() === '' ? null : Number(text);
      const issue = checkParam(typeKey, key, Number.isNaN(value) ? null : value);
      if (issue) issues[key] = issue;
    }
    return issues;
  }

  /** The values that would change, for the preview before sending. */
  get diff(): ParamDiff[] {
    const params = this.details?.params ?? {};
    return this.specs
      .filter((spec) => spec.key in this.draft)
      .map((spec) => ({ spec, from: params[spec.key], to: Number(this.draft[spec.key]) }))
      .filter((d) => d.from !== d.to);
  }

  get canSubmit(): boolean {
    return (
      Boolean(this.details?.canSend) &&
      Object.keys(this.issues).length === 0 &&
      this.diff.length > 0
    );
  }

  /** Commands not yet applied, rejected, expired or superseded. */
  get pending(): Command[] {
    return (this.details?.commands ?? []).filter(
      (c) => c.kind === 'config' && !FINAL_STATES.includes(c.state),
    );
  }

  get lastApplied(): Command | undefined {
    return this.details?.commands.find((c) => c.state === 'applied' && c.kind === 'config');
  }

  /** The house's latest upgrade command, running or finished. */
  get lastUpgrade(): Command | undefined {
    return this.details?.commands.find((c) => c.kind === 'upgrade');
  }

  async loadUpgradeFiles(): Promise<void> {
    const files = await this.api.get('/upgrade/choices', { schema: z.array(upgradeFileSchema) });
    runInAction(() => (this.upgradeFiles = files));
  }

  async loadDeviceLogs(): Promise<void> {
    const houseId = this.houseId;
    if (houseId === null) return;
    const logs = await this.api.get('/envcontrol/deviceLog', {
      query: { houseId },
      schema: deviceLogListSchema,
      quiet: (e) => e.status === 404,
    });
    runInAction(() => {
      if (this.houseId === houseId) this.deviceLogs = logs;
    });
  }

  /** Asks the gateway for its log and waits for it ("load device log"). */
  async requestDeviceLog(): Promise<void> {
    const houseId = this.houseId;
    if (houseId === null) return;
    this.loadingLog = true;
    try {
      const logs = await this.api.post('/envcontrol/deviceLog', {
        body: { houseId },
        schema: deviceLogListSchema,
      });
      runInAction(() => {
        if (this.houseId === houseId) this.deviceLogs = logs;
      });
    } finally {
      runInAction(() => (this.loadingLog = false));
    }
  }

  /** Sends an upgrade file to this house's gateway; answers the commands made. */
  async upgrade(sha256: string): Promise<Command[]> {
    if (this.houseId === null) return [];
    const answer = await this.api.post('/upgrade/send', {
      body: { houseIds: [this.houseId], sha256 },
      schema: upgradeSentSchema,
    });
    runInAction(() => {
      for (const command of answer.commands) this.applyCommand(command);
    });
    return answer.commands;
  }

  async load(houseId: number): Promise<void> {
    if (this.houseId !== houseId) {
      this.houseId = houseId;
      this.details = null;
      this.draft = {};
      this.records = [];
      this.deviceLogs = [];
    }
    this.missing = false;
    const ticket = this.reads.ask();
    this.appliedDuringRead = new Map();
    this.reportsDuringRead = [];
    try {
      const [details, records] = await Promise.all([
        this.api.get('/envcontrol/house', {
          query: { houseId },
          schema: gatewayDetailsSchema,
          quiet: (e) => e.status === 404,
        }),
        this.api.get('/envcontrol/records', {
          query: { ...this.recordsQuery, size: 50 },
          schema: paramChangeListSchema,
          quiet: (e) => e.status === 404,
        }),
      ]);
      runInAction(() => {
        if (this.houseId !== houseId || !this.reads.isLatest(ticket)) return;
        for (const command of this.appliedDuringRead?.values() ?? []) merge(details, command);
        for (const report of this.reportsDuringRead ?? []) mergeReport(details, report);
        this.appliedDuringRead = null;
        this.reportsDuringRead = null;
        this.details = details;
        this.records = records.rows;
        this.recordsTotal = records.total;
      });
    } catch (error) {
      runInAction(() => {
        if (!this.reads.isLatest(ticket)) return;
        this.appliedDuringRead = null;
        this.reportsDuringRead = null;
        if (this.houseId === houseId) this.missing = true;
      });
      throw error;
    }
  }

  /** The records' query: this house (or all), and the filters that are set. */
  get recordsQuery(): Record<string, string | number> {
    const f = this.recordFilters;
    const query: Record<string, string | number> = {};
    if (!f.allHouses && this.houseId !== null) query.houseId = this.houseId;
    for (const key of ['operator', 'key', 'source', 'from', 'to'] as const)
      if (f[key].trim() !== '') query[key] = f[key].trim();
    return query;
  }

  setRecordFilter<K extends keyof RecordFilters>(key: K, value: RecordFilters[K]): void {
    this.recordFilters[key] = value;
  }

  resetRecordFilters(): void {
    this.recordFilters = { ...NO_FILTERS };
  }

  async loadRecords(): Promise<void> {
    const records = await this.api.get('/envcontrol/records', {
      query: { ...this.recordsQuery, size: 50 },
      schema: paramChangeListSchema,
    });
    runInAction(() => {
      this.records = records.rows;
      this.recordsTotal = records.total;
    });
  }

  edit(key: string, text: string): void {
    this.draft[key] = text;
  }

  discard(): void {
    this.draft = {};
  }

  copy(): void {
    if (this.details) this.clipboard = { ...this.details.params };
  }

  /** Replaces the new values with the copied ones (the page asks first: it overwrites). */
  paste(): void {
    if (!this.clipboard) return;
    const supported = new Set(this.specs.map((s) => s.key));
    const draft: Record<string, string> = {};
    for (const [key, value] of Object.entries(this.clipboard))
      if (supported.has(key)) draft[key] = String(value);
    this.draft = draft;
  }

  /**
   * Fills the new values from the flock's breed standard (the page asks first); answers how
   * many values it filled (0: the flock has no breed standard).
   */
  async autoConfig(): Promise<number> {
    if (this.houseId === null) return 0;
    const { params } = await this.api.get('/envcontrol/autoConfig', {
      query: { houseId: this.houseId },
      schema: z.object({ params: z.record(z.string(), z.number()) }),
    });
    runInAction(() => {
      for (const [key, value] of Object.entries(params)) this.draft[key] = String(value);
    });
    return Object.keys(params).length;
  }

  /** Sends the diff to this house and `alsoTo`; answers the commands made. */
  async send(alsoTo: readonly number[] = []): Promise<Command[]> {
    if (this.houseId === null) return [];
    const params = Object.fromEntries(this.diff.map((d) => [d.spec.key, d.to]));
    const answer = await this.api.post('/envcontrol/send', {
      body: { houseIds: [this.houseId, ...alsoTo.filter((id) => id !== this.houseId)], params },
      schema: sentSchema,
    });
    runInAction(() => {
      this.draft = {};
      for (const command of answer.commands) this.applyCommand(command);
    });
    return answer.commands;
  }

  /** A command's new state, live or from the send's answer; applying it twice is harmless. */
  applyCommand(command: Command): void {
    const details = this.details;
    if (!details || command.houseId !== details.houseId) return;
    this.appliedDuringRead?.set(command.id, command);
    // An applied change gave the records rows; a finished upgrade, whatever its outcome, says
    // which version the gateway came back on: fetch them again, quietly.
    const finishedUpgrade = command.kind === 'upgrade' && FINAL_STATES.includes(command.state);
    if (merge(details, command) && (command.state === 'applied' || finishedUpgrade)) {
      if (this.houseId !== null) void this.load(this.houseId).catch(() => undefined);
    }
  }

  /**
   * The gateway's own report, live: its parameters (a change at the controller's keypad) and
   * the version it runs. The records gained rows: fetched again, quietly.
   */
  applyReport(report: GatewayReported): void {
    const details = this.details;
    if (!details || report.houseId !== details.houseId) return;
    this.reportsDuringRead?.push(report);
    mergeReport(details, report);
    if (report.params) void this.loadRecords().catch(() => undefined);
  }

  reset(): void {
    this.reads.forget();
    this.appliedDuringRead = null;
    this.reportsDuringRead = null;
    this.houseId = null;
    this.details = null;
    this.draft = {};
    this.records = [];
    this.clipboard = null;
  }
}

/**
 * Puts a command's state into the house's details; answers whether it was taken. Two server paths
 * may report one command (its sending and its answer), and a read may be older than an event:
 * a state that is behind the one known ("sent" after "applied", "queued" after "sent") is left.
 */
function merge(details: GatewayDetails, command: Command): boolean {
  const at = details.commands.findIndex((c) => c.id === command.id);
  const known = at >= 0 ? details.commands[at]! : null;
  if (known && progressOf(command.state) < progressOf(known.state)) return false;
  if (at >= 0) details.commands[at] = command;
  else details.commands.unshift(command);
  if (command.state === 'applied' && command.readBack)
    Object.assign(details.params, command.readBack);
  return true;
}

/** Puts a gateway's own report into the house's details: what it says changed, nothing else. */
function mergeReport(details: GatewayDetails, report: GatewayReported): void {
  if (report.params) {
    details.params = { ...report.params };
    details.reportedAt = report.reportedAt;
  }
  if (report.version !== null && details.gateway) details.gateway.version = report.version;
}
