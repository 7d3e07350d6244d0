import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadJsonFile, EdgeFileError } from './loadFile';
import { loadProfile, type Profile } from './profile';
import type { Transport } from './modbus';

const PROFILES_DIR = path.join(import.meta.dirname, 'profiles');

const deviceSchema = z
  .object({
    /** A short name for logs and for the fault event (`<name>_no_answer`). */
    name: z.string().regex(/^[a-z0-9_]{1,24}$/, 'lower-case letters, digits and _, at most 24'),
    /** A profile file (relative to the config file), or the name of one in edge/profiles/. */
    profile: z.string().min(1),
    /** tcp://host:port, or rtu:///dev/ttyUSB0?baud=9600&parity=none&dataBits=8&stopBits=1 */
    address: z.string().min(1),
    unitId: z.number().int().min(0).max(247).default(1),
    pollSeconds: z.number().min(0.2).max(3600).optional(),
    timeoutMs: z.number().int().min(50).max(30_000).default(1000),
    retries: z.number().int().min(0).max(5).default(1),
  })
  .strict();

const houseSchema = z
  .object({
    /** The house's name: the key of its credentials in the credentials file. */
    name: z.string().min(1).max(80),
    networkId: z.string().min(1).max(64).optional(),
    token: z.string().min(1).optional(),
    mqttUrl: z.string().optional(),
    /** One reading of the house every this many seconds (the gateway's interval in Roost). */
    intervalSeconds: z.number().min(0.2).max(3600).default(60),
    devices: z.array(deviceSchema).min(1),
  })
  .strict()
  .refine((h) => (h.networkId === undefined) === (h.token === undefined), {
    message: 'give both networkId and token, or neither (then the credentials file holds them)',
  });

export const edgeConfigSchema = z
  .object({
    mqttUrl: z
      .string()
      .regex(/^mqtts?:\/\//, 'mqtt://host:port or mqtts://host:port')
      .optional(),
    /** A CA certificate (PEM) for an mqtts:// broker signed by a private authority. */
    caFile: z.string().optional(),
    dataDir: z.string().default('./edge-data'),
    credentialsFile: z.string().optional(),
    buffer: z
      .object({
        maxMegabytes: z.number().min(1).max(100_000).default(512),
        maxAgeHours: z
          .number()
          .min(0.01)
          .max(24 * 30)
          .default(24 * 30),
      })
      .strict()
      .default({ maxMegabytes: 512, maxAgeHours: 24 * 30 }),
    version: z.string().max(40).default('roost-edge 1.0'),
    /** A line of figures in the log this often: requests, round trips, each store's counts. */
    statsMinutes: z.number().min(0.1).max(1440).default(60),
    houses: z.array(houseSchema).min(1),
  })
  .strict();

const credentialsSchema = z.object({
  houses: z.record(
    z.string(),
    z.object({
      networkId: z.string().min(1),
      token: z.string().min(1),
      mqttUrl: z.string().optional(),
    }),
  ),
});

export interface DeviceSettings {
  name: string;
  profile: Profile;
  profileFile: string;
  transport: Transport;
  unitId: number;
  pollMs: number;
  timeoutMs: number;
  retries: number;
}

export interface HouseSettings {
  name: string;
  networkId: string;
  token: string;
  mqttUrl: string;
  intervalMs: number;
  devices: DeviceSettings[];
}

export interface EdgeSettings {
  caFile?: string;
  dataDir: string;
  maxBytes: number;
  maxAgeMs: number;
  version: string;
  statsMs: number;
  houses: HouseSettings[];
}

/** `tcp://host:port` or `rtu:///dev/ttyX?baud=…`: where a device is. */
export function parseAddress(address: string): Transport {
  const url = new URL(address);
  if (url.protocol === 'tcp:') {
    if (!url.hostname) throw new Error(`${address}: no host`);
    return { kind: 'tcp', host: url.hostname, port: Number(url.port || 502) };
  }
  if (url.protocol === 'rtu:') {
    const q = url.searchParams;
    const parity = q.get('parity') ?? 'none';
    if (parity !== 'none' && parity !== 'even' && parity !== 'odd')
      throw new Error(`${address}: parity is none, even or odd`);
    return {
      kind: 'rtu',
      path: decodeURIComponent(url.pathname),
      baudRate: Number(q.get('baud') ?? 9600),
      parity,
      dataBits: q.get('dataBits') === '7' ? 7 : 8,
      stopBits: q.get('stopBits') === '2' ? 2 : 1,
    };
  }
  throw new Error(`${address}: an address is tcp://host:port or rtu:///dev/ttyX?baud=9600`);
}

export function resolveProfile(name: string, baseDir: string): string {
  const candidates = [
    path.resolve(baseDir, name),
    path.join(PROFILES_DIR, name),
    path.join(PROFILES_DIR, `${name}.json`),
  ];
  return candidates.find((c) => existsSync(c)) ?? candidates[0]!;
}

/** Reads and checks the config, its credentials and every profile it names; throws EdgeFileError. */
export function loadSettings(configFile: string): EdgeSettings {
  const config = loadJsonFile(configFile, edgeConfigSchema);
  const baseDir = path.dirname(path.resolve(configFile));
  const credentialsFile = path.resolve(
    baseDir,
    config.credentialsFile ?? `${path.basename(configFile)}.credentials.json`,
  );
  const needCredentials = config.houses.some((h) => !h.networkId);
  const credentials = needCredentials
    ? existsSync(credentialsFile)
      ? loadJsonFile(credentialsFile, credentialsSchema).houses
      : {}
    : {};
  if (needCredentials && existsSync(credentialsFile) && statSync(credentialsFile).mode & 0o077)
    console.warn(`${credentialsFile}: readable by others; chmod 600 it (it holds device tokens)`);
  const profiles = new Map<string, Profile>();
  const houses = config.houses.map((h, i): HouseSettings => {
    const kept = credentials[h.name];
    const networkId = h.networkId ?? kept?.networkId;
    const token = h.token ?? kept?.token;
    if (!networkId || !token)
      throw new EdgeFileError(
        `${configFile}: house "${h.name}" (houses.${i}) has no networkId and token, and ${credentialsFile} holds none for it: enrol it (roost-edge enroll <code>) or add them`,
      );
    const mqttUrl = kept?.mqttUrl ?? h.mqttUrl ?? config.mqttUrl;
    if (!mqttUrl)
      throw new EdgeFileError(
        `${configFile}: house "${h.name}" has no mqttUrl (nor a default one)`,
      );
    const intervalMs = h.intervalSeconds * 1000;
    return {
      name: h.name,
      networkId,
      token,
      mqttUrl,
      intervalMs,
      devices: h.devices.map((d, j) => {
        const profileFile = resolveProfile(d.profile, baseDir);
        const profile = profiles.get(profileFile) ?? loadProfile(profileFile);
        profiles.set(profileFile, profile);
        let transport: Transport;
        try {
          transport = parseAddress(d.address);
        } catch (error) {
          throw new EdgeFileError(
            `${configFile}: houses.${i}.devices.${j}.address: ${(error as Error).message}`,
          );
        }
        return {
          name: d.name,
          profile,
          profileFile,
          transport,
          unitId: d.unitId,
          pollMs: (d.pollSeconds ?? h.intervalSeconds) * 1000,
          timeoutMs: d.timeoutMs,
          retries: d.retries,
        };
      }),
    };
  });
  return {
    caFile: config.caFile ? path.resolve(baseDir, config.caFile) : undefined,
    dataDir: path.resolve(baseDir, config.dataDir),
    maxBytes: config.buffer.maxMegabytes * 1024 * 1024,
    maxAgeMs: config.buffer.maxAgeHours * 3600_000,
    version: config.version,
    statsMs: config.statsMinutes * 60_000,
    houses,
  };
}

export const readCa = (file: string | undefined): Buffer | undefined =>
  file ? readFileSync(file) : undefined;
