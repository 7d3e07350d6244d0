import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { DemoGateway } from '../demo/seed';

export const USAGE =
  'usage: npm run simulate -- [--url mqtt://host:port | mqtts://host:8883 [--ca ca.pem]] [--gateways N] [--interval S] [--seed K] [--file path]';

/** A mistake on the command line or in the file: printed as one line, exit code 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly showUsage: boolean,
  ) {
    super(message);
  }
}

export interface CliOptions {
  url: string;
  /** null: every gateway in the file. */
  gateways: number | null;
  intervalMs: number;
  seed: number;
  file: string;
  /** The CA file (PEM) a TLS broker's certificate must chain to, read. */
  ca?: Buffer;
}

/** Parses the simulator's flags (node:util parseArgs, strict: unknown flags are errors). */
export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv): CliOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' },
        gateways: { type: 'string' },
        interval: { type: 'string' },
        seed: { type: 'string' },
        file: { type: 'string' },
        ca: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new CliError((error as Error).message.split('\n')[0] ?? 'bad arguments', true);
  }
  const str = (key: string) => (typeof values[key] === 'string' ? values[key] : undefined);

  const url = str('url') ?? 'mqtt://127.0.0.1:1883';
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    // reported below
  }
  if (!['mqtt:', 'mqtts:', 'tcp:', 'ws:', 'wss:'].includes(protocol)) {
    throw new CliError(`--url must look like mqtt://host:port, not "${url}"`, true);
  }

  const gatewaysText = str('gateways');
  let gateways: number | null = null;
  if (gatewaysText !== undefined) {
    gateways = Number(gatewaysText);
    if (!/^\d+$/.test(gatewaysText) || gateways < 1) {
      throw new CliError(
        `--gateways must be a whole number of at least 1, not "${gatewaysText}"`,
        true,
      );
    }
  }

  const intervalText = str('interval') ?? '60';
  const interval = Number(intervalText);
  // 10 ms: below that timers cannot keep up anyway; a day: above that it is not a simulation.
  if (!/^\d*\.?\d+$/.test(intervalText) || interval < 0.01 || interval > 86_400) {
    throw new CliError(
      `--interval must be seconds between 0.01 and 86400, not "${intervalText}"`,
      true,
    );
  }

  const seedText = str('seed') ?? '1';
  const seed = Number(seedText);
  if (!/^-?\d+$/.test(seedText) || !Number.isSafeInteger(seed)) {
    throw new CliError(`--seed must be a whole number, not "${seedText}"`, true);
  }

  const file = str('file') ?? path.join(env.DATA_DIR || './data', 'demo-gateways.json');
  const caFile = str('ca');
  let ca: Buffer | undefined;
  if (caFile !== undefined) {
    if (!['mqtts:', 'wss:'].includes(protocol))
      throw new CliError('--ca is for a TLS broker: give an mqtts:// or wss:// --url', true);
    try {
      ca = readFileSync(caFile);
    } catch (error) {
      throw new CliError(`--ca: cannot read ${caFile} (${(error as Error).message})`, false);
    }
  }
  return {
    url,
    gateways,
    intervalMs: Math.round(interval * 1000),
    seed,
    file,
    ...(ca ? { ca } : {}),
  };
}

const demoGatewaySchema = z.object({
  networkId: z.string().min(1).max(64),
  token: z.string().min(1),
  houseId: z.number().int(),
  houseName: z.string(),
  farmName: z.string(),
  typeKey: z.number().int(),
  breed: z.enum(['broiler', 'layer']),
  placedOn: z.iso.date(),
  ageAtPlacement: z.number().min(0),
  headCount: z.number().int().min(0),
  provinceAdcode: z.string(),
  longitude: z.number().min(-180).max(180),
  latitude: z.number().min(-90).max(90),
});

/** Reads and checks the demo gateways file that `npm start` writes in demo mode. */
export function loadDemoGateways(file: string, count: number | null): DemoGateway[] {
  if (!existsSync(file)) {
    throw new CliError(
      `${file} not found: run \`npm start\` once in demo mode (ROOST_DEMO=1, same DATA_DIR) first, it writes this file`,
      false,
    );
  }
  let list: DemoGateway[];
  try {
    list = z.array(demoGatewaySchema).parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    const reason =
      error instanceof z.ZodError
        ? `${error.issues[0]?.path.join('.') ?? ''}: ${error.issues[0]?.message ?? ''}`
        : (error as Error).message;
    throw new CliError(`${file} is not a demo gateways file (${reason})`, false);
  }
  if (list.length === 0) throw new CliError(`${file} lists no gateways`, false);
  if (count !== null && count > list.length) {
    throw new CliError(`--gateways ${count}: ${file} has only ${list.length} gateways`, false);
  }
  return count === null ? list : list.slice(0, count);
}
