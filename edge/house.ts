import path from 'node:path';
import {
  configSetSchema,
  logGetSchema,
  UPGRADE_NO_UPDATE,
  upgradeOrderSchema,
  type GatewayTopic,
} from '../src/contract/gateway';
import type { HouseSettings } from './config';
import { Device } from './device';
import { HouseLink } from './link';
import { transportKey, type ModbusLine } from './modbus';
import { FAULT_VALUES } from './profile';
import { DiskStore } from './store';
import { SENTINEL_LIMIT } from '../src/contract/metrics';

export interface HouseContext {
  dataDir: string;
  maxBytes: number;
  maxAgeMs: number;
  version: string;
  ca?: Buffer;
  lineFor(key: string, make: () => ModbusLine): ModbusLine;
  newLine(device: HouseSettings['devices'][number]): ModbusLine;
  log(line: string): void;
  recentLog(lines: number): string[];
}

/** The controller alarm that says the store dropped readings. */
export const DROP_ALARM = 'edge_store_dropped';

/** Answers already given, by command id: a resent command gets the same answer, applied once. */
const ANSWERS_KEPT = 500;

/**
 * One house served by the edge: a Roost gateway of its own (network id, token, MQTT link,
 * disk store) over the devices that measure and control it.
 */
export class House {
  readonly store: DiskStore;
  readonly link: HouseLink;
  readonly devices: Device[];
  private timer: NodeJS.Timeout | null = null;
  private readonly alarms = new Map<string, boolean>();
  private readonly totals = new Map<string, number>();
  private readonly answers = new Map<string, unknown>();
  private reportedThisConnection = false;
  /** Drops of the store already told to Roost, and whether its alarm is open there. */
  private droppedTold = 0;
  private dropAlarm = false;
  private busy: Promise<unknown> = Promise.resolve();

  constructor(
    readonly settings: HouseSettings,
    private readonly ctx: HouseContext,
  ) {
    const dir = path.join(ctx.dataDir, settings.networkId.replace(/[^A-Za-z0-9_-]/g, '_'));
    this.store = new DiskStore(dir, { maxBytes: ctx.maxBytes, maxAgeMs: ctx.maxAgeMs });
    this.link = new HouseLink(
      {
        url: settings.mqttUrl,
        networkId: settings.networkId,
        token: settings.token,
        version: ctx.version,
        ca: ctx.ca,
        log: ctx.log,
      },
      this.store,
    );
    this.devices = settings.devices.map(
      (d) =>
        new Device(
          d,
          ctx.lineFor(transportKey(d.transport), () => ctx.newLine(d)),
          {
            polled: (device, localChange) => this.polled(device, localChange),
            healthChanged: (device) => this.healthChanged(device),
          },
        ),
    );
    this.link.onCommand = (kind, payload) => this.command(kind, payload);
    this.link.onListening = () => {
      this.reportedThisConnection = false;
      this.report('device');
    };
  }

  start(): void {
    if (this.store.size)
      this.ctx.log(`${this.settings.name}: ${this.store.size} stored messages to send`);
    this.link.start();
    for (const d of this.devices) d.start();
    const tick = () => {
      this.reading();
      this.timer = setTimeout(
        tick,
        this.settings.intervalMs - (Date.now() % this.settings.intervalMs),
      );
    };
    this.timer = setTimeout(
      tick,
      this.settings.intervalMs - (Date.now() % this.settings.intervalMs),
    );
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.devices) d.stop();
    await this.link.stop();
    this.store.close();
  }

  /** The house's whole parameter set, across its devices. */
  params(): Record<string, number> {
    return Object.assign({}, ...this.devices.map((d) => d.params ?? {})) as Record<string, number>;
  }

  /**
   * Readings the bounded store dropped reach Roost as a controller alarm of the house, with the
   * counts in its text, so a gap nobody can fill is explained where the gap is seen. It ends
   * once the backlog is sent: nothing more is being lost.
   */
  private tellDrops(): void {
    const c = this.store.counters;
    const dropped = c.droppedForSize + c.droppedForAge;
    if (dropped > this.droppedTold) {
      this.droppedTold = dropped;
      this.dropAlarm = true;
      const text = `Roost Edge dropped ${dropped} stored readings since it started: ${c.droppedForSize} (store full), ${c.droppedForAge} (older than the age limit)`;
      this.ctx.log(`${this.settings.name}: ${text}`);
      this.link.keep('event', {
        ts: Date.now(),
        kind: 'alarm',
        code: DROP_ALARM,
        active: true,
        text,
      });
    } else if (this.dropAlarm && this.link.connected && this.store.size <= 1) {
      this.dropAlarm = false;
      this.link.keep('event', { ts: Date.now(), kind: 'alarm', code: DROP_ALARM, active: false });
    }
  }

  /** One reading of the house: what each device last read; a silent device's metrics as faults. */
  private reading(): void {
    this.tellDrops();
    const metrics: Record<string, number> = {};
    let mode: number | undefined;
    for (const d of this.devices) {
      if (d.health === 'silent') {
        for (const p of d.settings.profile.points) metrics[p.metric] = FAULT_VALUES.notConnected;
      } else if (d.health === 'answering' && d.last) {
        Object.assign(metrics, d.last.metrics);
        mode ??= d.last.mode;
        for (const p of d.settings.profile.points) if (p.total) this.toAmount(d, p.metric, metrics);
      }
    }
    if (!Object.keys(metrics).length) return;
    // The store's position as seq: it survives a restart, so a gap in seq on the server is a
    // reading lost (events take positions too, so their gaps are expected).
    const seq = this.store.nextPosition;
    const ts = Date.now();
    this.link.keep('telemetry', { ts, seq, metrics, ...(mode === undefined ? {} : { mode }) }, ts);
  }

  /** A running total becomes the amount since the last reading; a meter reset sends none. */
  private toAmount(device: Device, metric: string, metrics: Record<string, number>): void {
    const total = metrics[metric];
    if (total === undefined || total <= SENTINEL_LIMIT) return;
    const key = `${device.settings.name}:${metric}`;
    const before = this.totals.get(key);
    this.totals.set(key, total);
    if (before === undefined || total < before) delete metrics[metric];
    else metrics[metric] = Number((total - before).toFixed(6));
  }

  private polled(device: Device, localChange: boolean): void {
    const profile = device.settings.profile;
    for (const a of profile.alarms) {
      const active = device.last?.alarms[a.code];
      if (active === undefined) continue;
      const key = `${device.settings.name}:${a.code}`;
      const before = this.alarms.get(key) ?? false;
      this.alarms.set(key, active);
      if (active !== before)
        this.link.keep('event', {
          ts: Date.now(),
          kind: a.kind,
          code: a.code,
          active,
          ...(a.text ? { text: a.text } : {}),
        });
    }
    if (localChange) {
      this.ctx.log(`${this.settings.name}: ${device.settings.name} changed at the controller`);
      this.report('local');
    } else if (!this.reportedThisConnection) this.report('device');
  }

  private healthChanged(device: Device): void {
    const name = device.settings.name;
    const silent = device.health === 'silent';
    if (silent)
      this.ctx.log(`${this.settings.name}: ${name} does not answer (${device.lastError})`);
    else this.ctx.log(`${this.settings.name}: ${name} answers`);
    const key = `${name}:no_answer`;
    if ((this.alarms.get(key) ?? false) === silent) return;
    this.alarms.set(key, silent);
    this.link.keep('event', {
      ts: Date.now(),
      kind: 'alarm',
      code: `${name}_no_answer`,
      active: silent,
      ...(silent ? { text: `${name}: ${device.lastError}`.slice(0, 200) } : {}),
    });
  }

  private report(source: 'device' | 'local'): void {
    if (!this.link.connected) return;
    const params = this.params();
    if (!Object.keys(params).length) return;
    this.reportedThisConnection = true;
    this.link.reply('config/report', { ts: Date.now(), version: this.ctx.version, params, source });
  }

  private command(kind: GatewayTopic, payload: Buffer): void {
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    if (kind === 'log/get') {
      const ask = logGetSchema.safeParse(body);
      if (ask.success)
        this.link.reply('log', {
          id: ask.data.id,
          lines: this.ctx.recentLog(ask.data.lines ?? 100),
        });
      return;
    }
    if (kind === 'upgrade') {
      const order = upgradeOrderSchema.safeParse(body);
      // The edge is updated as a program on its box, never over the air.
      if (order.success)
        this.link.reply('upgrade/progress', {
          id: order.data.id,
          status: 'failed',
          reason: UPGRADE_NO_UPDATE,
        });
      return;
    }
    if (kind !== 'config/set') return;
    const set = configSetSchema.safeParse(body);
    if (!set.success) return;
    const { id, params } = set.data;
    const known = this.answers.get(id);
    if (known) {
      this.link.reply('config/ack', known);
      return;
    }
    // One command at a time, in the order they came.
    this.busy = this.busy.then(() => this.apply(id, params)).catch(() => undefined);
  }

  private async apply(id: string, params: Record<string, number>): Promise<void> {
    const answer = await this.write(id, params);
    this.answers.set(id, answer);
    if (this.answers.size > ANSWERS_KEPT) this.answers.delete(this.answers.keys().next().value!);
    this.ctx.log(
      `${this.settings.name}: command ${id} ${answer.status}${answer.reason ? `: ${answer.reason}` : ''}`,
    );
    this.link.reply('config/ack', answer);
  }

  private async write(
    id: string,
    params: Record<string, number>,
  ): Promise<{
    id: string;
    status: 'applied' | 'rejected';
    values?: Record<string, number>;
    reason?: string;
  }> {
    const keys = Object.keys(params);
    const holders = new Set<Device>();
    for (const key of keys) {
      const device = this.devices.find((d) =>
        d.settings.profile.params.some((p) => p.param === key),
      );
      if (!device)
        return { id, status: 'rejected', reason: `no controller of this house holds ${key}` };
      holders.add(device);
    }
    if (holders.size !== 1)
      return {
        id,
        status: 'rejected',
        reason: 'these parameters live on more than one controller: send them apart',
      };
    const [device] = [...holders];
    try {
      const values = await device!.write(params);
      return { id, status: 'applied', values };
    } catch (error) {
      return {
        id,
        status: 'rejected',
        reason: `${device!.settings.name}: ${(error as Error).message}`.slice(0, 500),
      };
    }
  }
}
