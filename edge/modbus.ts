import ModbusRTU from 'modbus-serial';
import type { ReadBlock } from './registers';
import type { EdgeStats } from './stats';

/** Where a device is reached: a TCP address (a controller or a serial server), or a serial line. */
export type Transport =
  | { kind: 'tcp'; host: string; port: number }
  | {
      kind: 'rtu';
      path: string;
      baudRate: number;
      parity: 'none' | 'even' | 'odd';
      dataBits: 7 | 8;
      stopBits: 1 | 2;
    };

export const transportKey = (t: Transport): string =>
  t.kind === 'tcp' ? `tcp://${t.host}:${t.port}` : `rtu:${t.path}`;

/** Time beyond a request's own timeout before the line gives up on it itself. */
const GRACE_MS = 250;

class Deadline extends Error {}

function deadline<T>(ms: number, job: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Deadline('timed out')), ms);
    job().then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Modbus exception codes in words, for a rejected set-point a person reads in the console. */
const EXCEPTIONS: Record<number, string> = {
  1: 'illegal function: the controller does not support this request',
  2: 'illegal data address: the controller has no such register',
  3: 'illegal data value: the controller refused the value',
  4: 'device failure: the controller could not carry out the request',
  5: 'acknowledge: the controller accepted it but has not finished',
  6: 'device busy: the controller is busy, try again later',
  8: 'memory parity error in the controller',
  10: 'gateway path unavailable: the serial server has no route to this unit',
  11: 'gateway target failed to respond: the serial server got no answer from this unit',
};

/** A failed request, with a reason a person can act on. */
export class ModbusFailure extends Error {
  constructor(
    message: string,
    /** The Modbus exception code when the device answered with one (it is alive then). */
    readonly exception?: number,
  ) {
    super(message);
  }
}

export function describeFailure(error: unknown, timeoutMs: number): ModbusFailure {
  if (error instanceof ModbusFailure) return error;
  const e = error as { modbusCode?: number; errno?: string; message?: string; name?: string };
  if (typeof e.modbusCode === 'number') {
    const words = EXCEPTIONS[e.modbusCode] ?? 'unknown exception';
    return new ModbusFailure(`Modbus exception ${e.modbusCode}: ${words}`, e.modbusCode);
  }
  if (
    error instanceof Deadline ||
    e.errno === 'ETIMEDOUT' ||
    e.name === 'TransactionTimedOutError' ||
    /timed out/i.test(e.message ?? '')
  )
    return new ModbusFailure(`no answer within ${timeoutMs} ms`);
  return new ModbusFailure(`not reachable: ${e.message ?? String(error)}`);
}

/**
 * One Modbus line: a TCP connection or a serial port, shared by every unit behind it. Requests
 * go one at a time (RS-485 is half duplex, and most serial servers answer one request at once);
 * a line that failed is closed and opened again on the next request.
 */
export class ModbusLine {
  private client: ModbusRTU | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly transport: Transport,
    private readonly stats?: EdgeStats,
  ) {}

  /** Runs `job` with the line to itself, for unit `unitId`, with `timeoutMs` per request. */
  run<T>(unitId: number, timeoutMs: number, job: (client: ModbusRTU) => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      try {
        // Our own deadline as well as the library's: a peer that vanishes mid-request must not
        // hold the line (and every unit behind it) for ever.
        return await deadline(timeoutMs + GRACE_MS, async () => {
          const client = await this.open(timeoutMs);
          client.setID(unitId);
          client.setTimeout(timeoutMs);
          const sent = performance.now();
          const answer = await job(client);
          this.stats?.answered(performance.now() - sent);
          return answer;
        });
      } catch (error) {
        const failure = describeFailure(error, timeoutMs);
        this.stats?.failure();
        // An exception is an answer: the line is fine. Anything else may have left it confused.
        if (failure.exception === undefined) this.close();
        throw failure;
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  async read(unitId: number, timeoutMs: number, block: ReadBlock): Promise<number[]> {
    return this.run(unitId, timeoutMs, async (c) => {
      switch (block.function) {
        case 'holding':
          return (await c.readHoldingRegisters(block.start, block.count)).data;
        case 'input':
          return (await c.readInputRegisters(block.start, block.count)).data;
        case 'coil':
          return (await c.readCoils(block.start, block.count)).data
            .slice(0, block.count)
            .map(Number);
        case 'discrete':
          return (await c.readDiscreteInputs(block.start, block.count)).data
            .slice(0, block.count)
            .map(Number);
      }
    });
  }

  close(): void {
    const client = this.client;
    this.client = null;
    // destroy, not close: it also drops the requests the lost peer will never answer.
    client?.destroy(() => undefined);
  }

  private async open(timeoutMs: number): Promise<ModbusRTU> {
    if (this.client?.isOpen) return this.client;
    this.close();
    const client = new ModbusRTU();
    const t = this.transport;
    if (t.kind === 'tcp') await client.connectTCP(t.host, { port: t.port, timeout: timeoutMs });
    else
      await client.connectRTUBuffered(t.path, {
        baudRate: t.baudRate,
        parity: t.parity,
        dataBits: t.dataBits,
        stopBits: t.stopBits,
      });
    this.client = client;
    return client;
  }
}
