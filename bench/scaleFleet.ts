import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BenchGateway } from './gatewayClient';
import {
  createFleet,
  type HouseModel,
  type TelemetryReading,
} from '../server/simulator/houseModel';

/**
 * The scale bench's gateways, in child processes of up to GATEWAYS_PER_PROCESS each: one
 * process may hold no more open files than this machine's hard limit (20,000 here), and a
 * gateway is a socket. Each child sends its gateways' readings on their schedule and tells the
 * bench what was offered and acknowledged; the bench asks it for the alarm samples.
 */
export const GATEWAYS_PER_PROCESS = 10_000;

export interface FleetGateway {
  networkId: string;
  houseId: number;
  /** The broker's port this gateway connects to. */
  port: number;
}

export interface LoadFigures {
  offered: number;
  failed: number;
  /** Publish → PUBACK, ms, of every acknowledged reading since the last reset. */
  latencies: number[];
}

type ToChild =
  | { type: 'start'; gateways: FleetGateway[]; token: string; intervalS: number }
  | { type: 'load' }
  | { type: 'reset' }
  | { type: 'sample'; id: number; index: number; co2: number }
  | { type: 'stop' };

type FromChild =
  | { type: 'connected' }
  | { type: 'sampled'; id: number }
  | { type: 'figures'; figures: LoadFigures }
  | { type: 'failed'; message: string };

/** The gateways, split over child processes; `index` is a gateway's place in the whole list. */
export class Fleet {
  private readonly children: ChildProcess[] = [];
  private readonly waiting = new Map<number, () => void>();
  private nextId = 1;
  private failure: Error | null = null;

  private constructor(
    private readonly gateways: readonly FleetGateway[],
    private readonly token: string,
    private readonly intervalS: number,
  ) {}

  /** Connects every gateway (a refused sign-in is tried again, as a gateway does). */
  static async connect(gateways: FleetGateway[], token: string, intervalS: number) {
    const fleet = new Fleet(gateways, token, intervalS);
    await Promise.all(
      Array.from({ length: Math.ceil(gateways.length / GATEWAYS_PER_PROCESS) }, (_, i) =>
        fleet.spawn(gateways.slice(i * GATEWAYS_PER_PROCESS, (i + 1) * GATEWAYS_PER_PROCESS)),
      ),
    );
    return fleet;
  }

  private spawn(gateways: FleetGateway[]): Promise<void> {
    const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'] });
    this.children.push(child);
    return new Promise<void>((resolve, reject) => {
      child.on('message', (message: FromChild) => {
        if (message.type === 'connected') resolve();
        else if (message.type === 'sampled') this.waiting.get(message.id)?.();
        else if (message.type === 'failed') {
          this.failure = new Error(message.message);
          reject(this.failure);
        }
      });
      child.on('exit', (code) => {
        if (code !== 0) reject(new Error(`a gateway process exited with ${code}`));
      });
      child.send({ type: 'start', gateways, token: this.token, intervalS: this.intervalS });
    });
  }

  /** Every gateway starts publishing once per interval, their phases spread over it. */
  startLoad(): void {
    for (const child of this.children) child.send({ type: 'load' } satisfies ToChild);
  }

  /** Starts counting afresh (after the warm-up). */
  reset(): void {
    for (const child of this.children) child.send({ type: 'reset' } satisfies ToChild);
  }

  /**
   * Gateway `index` sends a reading with this CO2 now, outside its schedule, and its regular
   * readings carry it from then on; resolves on its PUBACK.
   */
  sample(index: number, co2: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const child = this.children[Math.floor(index / GATEWAYS_PER_PROCESS)]!;
    return new Promise<void>((resolve) => {
      this.waiting.set(id, () => {
        this.waiting.delete(id);
        resolve();
      });
      child.send({
        type: 'sample',
        id,
        index: index % GATEWAYS_PER_PROCESS,
        co2,
      } satisfies ToChild);
    });
  }

  /** Stops the load and answers every child's figures, summed. */
  async stop(): Promise<LoadFigures> {
    const all = await Promise.all(
      this.children.map(
        (child) =>
          new Promise<LoadFigures>((resolve, reject) => {
            const listener = (message: FromChild) => {
              if (message.type !== 'figures') return;
              child.off('message', listener);
              resolve(message.figures);
            };
            child.on('message', listener);
            child.once('exit', (code) =>
              reject(new Error(`a gateway process exited (${code}) before its figures`)),
            );
            child.send({ type: 'stop' } satisfies ToChild);
          }),
      ),
    );
    return {
      offered: all.reduce((n, f) => n + f.offered, 0),
      failed: all.reduce((n, f) => n + f.failed, 0),
      latencies: all.flatMap((f) => f.latencies),
    };
  }

  close(): void {
    for (const child of this.children) child.kill();
  }

  get size(): number {
    return this.gateways.length;
  }
}

/** The child: its gateways, their house models and their schedule. */
function runChild(): void {
  let clients: BenchGateway[] = [];
  let gateways: FleetGateway[] = [];
  let fleet: HouseModel[] = [];
  let intervalS = 10;
  let timer: NodeJS.Timeout | undefined;
  const busy: boolean[] = [];
  let figures: LoadFigures = { offered: 0, failed: 0, latencies: [] };
  /**
   * What a sampled house's readings say since its last sample (its CO2 over or under the
   * limit). Without it, the house's next regular reading, with the model's own CO2 a few
   * seconds after a sample raised the alarm, cleared it again; the next sample then waited 30 s
   * for a clear that had already happened, which read as an alarm heard after 30 s.
   */
  const sampledCo2 = new Map<number, number>();
  const send = (g: number): Promise<void> => {
    const sent = performance.now();
    const reading: TelemetryReading = fleet[g]!.next(Date.now()).message;
    const co2 = sampledCo2.get(g);
    const payload =
      co2 === undefined ? reading : { ...reading, metrics: { ...reading.metrics, co2 } };
    return clients[g]!.publishAsync(
      `roost/v1/${gateways[g]!.networkId}/telemetry`,
      JSON.stringify(payload),
    ).then(() => {
      figures.latencies.push(performance.now() - sent);
    });
  };
  const tell = (message: FromChild) => process.send!(message);

  process.on('message', (message: ToChild) => {
    switch (message.type) {
      case 'start':
        gateways = message.gateways;
        intervalS = message.intervalS;
        fleet = fleetOf(gateways, intervalS);
        connectAll(gateways, message.token).then(
          (connected) => {
            clients = connected;
            tell({ type: 'connected' });
          },
          (error: Error) => tell({ type: 'failed', message: error.message }),
        );
        break;
      case 'load': {
        // Due readings from the clock, not from timer ticks: a loaded machine fires timers late.
        // A gateway whose previous reading is still unacknowledged skips its turn (as a real one
        // with QoS 1 and one message in flight would queue it).
        const rate = gateways.length / intervalS;
        const began = performance.now();
        let scheduled = 0;
        let next = 0;
        timer = setInterval(() => {
          const due = Math.floor(((performance.now() - began) / 1000) * rate);
          while (scheduled < due) {
            scheduled += 1;
            const g = next;
            next = (next + 1) % gateways.length;
            figures.offered += 1;
            if (busy[g]) continue;
            busy[g] = true;
            send(g).then(
              () => {
                busy[g] = false;
              },
              () => {
                figures.failed += 1;
                busy[g] = false;
              },
            );
          }
        }, 10);
        break;
      }
      case 'reset':
        figures = { offered: 0, failed: 0, latencies: [] };
        break;
      case 'sample':
        sampledCo2.set(message.index, message.co2);
        send(message.index).then(
          () => tell({ type: 'sampled', id: message.id }),
          () => tell({ type: 'sampled', id: message.id }),
        );
        break;
      case 'stop':
        clearInterval(timer);
        for (const c of clients) c.end();
        // Only once the figures (a latency per reading) have gone: disconnecting at once could
        // leave a large message unsent.
        process.send!({ type: 'figures', figures } satisfies FromChild, () => process.disconnect());
        break;
    }
  });
}

/** The simulator's own house models: the readings (and the odd fault) a real fleet sends. */
function fleetOf(gateways: readonly FleetGateway[], intervalS: number): HouseModel[] {
  return createFleet(
    gateways.map((g) => ({
      networkId: g.networkId,
      typeKey: 25,
      breed: 'broiler',
      placedOn: new Date(Date.now() - (g.houseId % 42) * 86_400_000).toISOString().slice(0, 10),
      ageAtPlacement: 1,
      headCount: 20_000,
      latitude: 36,
      longitude: 119,
    })),
    7,
    Date.now(),
    intervalS * 1000,
  );
}

async function connectAll(gateways: FleetGateway[], token: string): Promise<BenchGateway[]> {
  const clients: BenchGateway[] = [];
  for (let i = 0; i < gateways.length; i += 200)
    clients.push(
      ...(await Promise.all(
        gateways.slice(i, i + 200).map((g) => connectWithRetry(g.port, g.networkId, token)),
      )),
    );
  return clients;
}

/** As a gateway does: a refused or dropped sign-in is tried again after a pause. */
async function connectWithRetry(
  port: number,
  networkId: string,
  token: string,
): Promise<BenchGateway> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await BenchGateway.connect(port, networkId, token, 1_800);
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((r) => setTimeout(r, 1_000 * attempt));
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.send) runChild();
