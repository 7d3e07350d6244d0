import { logGetSchema, type DeviceLogReply, type LogGet } from '../../src/contract/gateway';
import type { GatewayLink } from './gatewayLink';

/** Lines a simulated gateway keeps, like a device's ring buffer. */
const KEEP_LINES = 200;
/** A device takes a moment to read its log out of flash. */
const ANSWER_DELAY_MS = 300;

/**
 * The log of a simulated gateway: what happened to it (connections, commands, upgrades, the
 * climate now and then), kept as its recent lines, and sent when the server asks (`log/get`).
 */
export class LogAgent {
  private readonly lines: string[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly link: GatewayLink) {
    link.onConnected(() => this.note(`network up, firmware ${link.version}`));
    link.onCommand((kind, payload) => {
      if (kind === 'log/get') this.answer(payload);
      else this.note(`command ${kind} received (${payload.length} bytes)`);
    });
  }

  /** One line, stamped with the device's clock. */
  note(text: string): void {
    this.lines.push(`${new Date().toISOString()} ${text}`);
    if (this.lines.length > KEEP_LINES) this.lines.splice(0, this.lines.length - KEEP_LINES);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private answer(payload: Buffer): void {
    let request: LogGet;
    try {
      request = logGetSchema.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.note('log read out');
      const lines = this.lines.slice(-(request.lines ?? 100));
      this.link.enqueue('log', { id: request.id, lines } satisfies DeviceLogReply);
    }, ANSWER_DELAY_MS);
    this.timers.add(timer);
  }
}
