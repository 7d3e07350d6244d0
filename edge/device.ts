import type { DeviceSettings } from './config';
import { ModbusFailure, type ModbusLine } from './modbus';
import {
  decode,
  emptyImage,
  encodeParam,
  planReads,
  type Decoded,
  type ReadBlock,
} from './registers';

export type DeviceHealth = 'unknown' | 'answering' | 'silent';

/**
 * One controller, sensor box or meter on a Modbus line: polled on its own interval with its
 * profile's read plan, written to for set-points. Keeps the last thing it read.
 */
export class Device {
  readonly plan: ReadBlock[];
  health: DeviceHealth = 'unknown';
  last: Decoded | null = null;
  lastError = '';
  /** The parameters as last read or written: a poll that differs is a change at the keypad. */
  params: Record<string, number> | null = null;
  /** Bumped by every write: a poll that straddled one does not judge the parameters. */
  private writes = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    readonly settings: DeviceSettings,
    private readonly line: ModbusLine,
    private readonly events: {
      polled(device: Device, localChange: boolean): void;
      healthChanged(device: Device): void;
    },
  ) {
    this.plan = planReads(settings.profile);
  }

  start(): void {
    const loop = async () => {
      if (this.stopped) return;
      const started = Date.now();
      await this.poll();
      if (this.stopped) return;
      this.timer = setTimeout(loop, Math.max(0, this.settings.pollMs - (Date.now() - started)));
    };
    void loop();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Reads every block (each with its retries); answers what it read, in Roost's terms. */
  async readAll(): Promise<Decoded> {
    const image = emptyImage();
    for (const block of this.plan) {
      const words = await this.attempt(() =>
        this.line.read(this.settings.unitId, this.settings.timeoutMs, block),
      );
      words.forEach((w, i) => image[block.function].set(block.start + i, w));
    }
    return decode(this.settings.profile, image);
  }

  async poll(): Promise<void> {
    const writesBefore = this.writes;
    try {
      const decoded = await this.readAll();
      this.last = decoded;
      const before = this.health;
      this.health = 'answering';
      this.lastError = '';
      let localChange = false;
      if (this.settings.profile.params.length && writesBefore === this.writes) {
        localChange = this.params !== null && !sameValues(this.params, decoded.params);
        this.params = decoded.params;
      }
      if (before !== 'answering') this.events.healthChanged(this);
      this.events.polled(this, localChange);
    } catch (error) {
      this.lastError = (error as Error).message;
      if (this.health !== 'silent') {
        this.health = 'silent';
        this.events.healthChanged(this);
      }
    }
  }

  /**
   * Writes parameters to this device in the order given, then reads them all back. Refused
   * before any write when the profile refuses a value; stops at the first write that fails.
   */
  async write(values: Record<string, number>): Promise<Record<string, number>> {
    const profile = this.settings.profile;
    const writes: Array<{ register: number; words: number[] }> = [];
    for (const [key, value] of Object.entries(values)) {
      const spec = profile.params.find((p) => p.param === key);
      if (!spec) throw new ModbusFailure(`${profile.model} has no register for ${key}`);
      const words = encodeParam(spec, value);
      if ('refused' in words) throw new ModbusFailure(words.refused);
      writes.push({ register: spec.register, words });
    }
    this.writes += 1;
    const { unitId, timeoutMs } = this.settings;
    for (const w of writes) {
      await this.line.run(unitId, timeoutMs, async (c) => {
        if (w.words.length === 1) await c.writeRegister(w.register, w.words[0]!);
        else await c.writeRegisters(w.register, w.words);
      });
    }
    const read = await this.readAll();
    this.writes += 1;
    this.params = read.params;
    return Object.fromEntries(Object.keys(values).map((k) => [k, read.params[k]!]));
  }

  private async attempt<T>(job: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries += 1) {
      try {
        return await job();
      } catch (error) {
        // An exception is the device's answer: asking again gives the same one.
        if ((error as ModbusFailure).exception !== undefined || tries >= this.settings.retries)
          throw error;
      }
    }
  }
}

function sameValues(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}
