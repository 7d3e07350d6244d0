import { createHash } from 'node:crypto';
import {
  UPGRADE_NO_UPDATE,
  upgradeOrderSchema,
  type UpgradeOrder,
  type UpgradeProgress,
} from '../../src/contract/gateway';
import type { GatewayLink } from './gatewayLink';

export interface UpgradeAgentOptions {
  random?: () => number;
  /** Chance a download crawls (a weak mobile link): each step takes SLOW_FACTOR times longer. */
  slowChance?: number;
  /** Chance the controller refuses to upgrade now (it is running a programme step). */
  refuseChance?: number;
  /** Chance the bytes arrive damaged, so the checksum does not match. */
  corruptChance?: number;
  /** Chance writing the firmware fails. */
  failChance?: number;
  /** Time of one progress step (a quarter of the download, the installation). */
  stepMs?: number;
  /** How long the gateway is away while it restarts. */
  restartMs?: number;
}

const SLOW_FACTOR = 6;
const DEFAULTS: Required<Omit<UpgradeAgentOptions, 'random'>> = {
  slowChance: 0.2,
  refuseChance: 0.05,
  corruptChance: 0.05,
  failChance: 0.05,
  stepMs: 600,
  restartMs: 4_000,
};

/**
 * The firmware side of a simulated gateway, as a device does it: on an `upgrade` order it
 * downloads the file over HTTP with the link's single-use token and its own device token,
 * reports the download in quarters, checks size and SHA-256, installs, restarts and comes
 * back on the new version, then reports `done`. Now and then it is slow, refuses, receives
 * damaged bytes or fails to install. An order it has seen again gets its last answer; one
 * that arrives while another is running is refused as busy.
 */
export class UpgradeAgent {
  private readonly answers = new Map<string, UpgradeProgress>();
  private running: string | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private readonly options: Required<Omit<UpgradeAgentOptions, 'random'>>;
  private readonly random: () => number;

  constructor(
    private readonly link: GatewayLink,
    private readonly deviceToken: string,
    options: UpgradeAgentOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.random = options.random ?? Math.random;
    link.onCommand((kind, payload) => {
      if (kind === 'upgrade') void this.order(payload);
    });
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async order(payload: Buffer): Promise<void> {
    let order: UpgradeOrder;
    try {
      order = upgradeOrderSchema.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      return;
    }
    const known = this.answers.get(order.id);
    if (known) return this.say(known);
    if (this.running === order.id) return;
    if (this.running) {
      return this.say({ id: order.id, status: 'failed', reason: 'busy: another upgrade runs' });
    }
    if (order.version === this.link.version)
      return this.finish({ id: order.id, status: 'failed', reason: UPGRADE_NO_UPDATE });
    if (this.random() < this.options.refuseChance)
      return this.finish({
        id: order.id,
        status: 'failed',
        reason: 'refused: the controller is running a programme step',
      });
    this.running = order.id;
    try {
      await this.upgrade(order);
    } catch (error) {
      this.finish({ id: order.id, status: 'failed', reason: (error as Error).message });
    } finally {
      if (this.running === order.id) this.running = null;
    }
  }

  private async upgrade(order: UpgradeOrder): Promise<void> {
    const step = this.options.stepMs * (this.random() < this.options.slowChance ? SLOW_FACTOR : 1);
    this.say({ id: order.id, status: 'downloading', percent: 0 });
    const response = await fetch(order.url, {
      headers: { authorization: `Bearer ${this.deviceToken}` },
    }).catch((error: unknown) => {
      throw new Error(`download failed: ${(error as Error).message}`);
    });
    if (!response.ok) throw new Error(`download refused: HTTP ${response.status}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    for (const percent of [25, 50, 75, 100]) {
      await this.wait(step);
      this.say({ id: order.id, status: 'downloading', percent });
    }
    if (bytes.length > 0 && this.random() < this.options.corruptChance) bytes[0] = bytes[0]! ^ 0xff;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (bytes.length !== order.size || sha256 !== order.sha256)
      throw new Error('checksum mismatch: the file is damaged');
    this.say({ id: order.id, status: 'installing' });
    await this.wait(step * 2);
    if (this.random() < this.options.failChance)
      throw new Error('install failed: flash write error');
    this.say({ id: order.id, status: 'restarting' });
    // Give the broker a moment to take the message before the connection drops.
    await this.wait(200);
    this.link.restart(order.version, this.options.restartMs);
    // Sent once the gateway is back: the outbox keeps it until the new connection.
    this.finish({ id: order.id, status: 'done', version: order.version });
  }

  private finish(answer: UpgradeProgress): void {
    this.answers.set(answer.id, answer);
    this.say(answer);
  }

  private say(progress: UpgradeProgress): void {
    if (!this.stopped) this.link.enqueue('upgrade/progress', progress);
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.stopped) return reject(new Error('stopped'));
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}
