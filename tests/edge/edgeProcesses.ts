import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEVICE_SCRIPT = path.join(import.meta.dirname, 'modbus_device.py');

export interface Child {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

function track(child: ChildProcess): Child {
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => (done = true));
  return {
    child,
    output: () => out,
    exited,
    async waitFor(pattern, ms = 60_000) {
      const start = Date.now();
      while (!pattern.test(out)) {
        if (done) throw new Error(`exited before ${pattern}:\n${out}`);
        if (Date.now() - start > ms) throw new Error(`no ${pattern} within ${ms} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async kill(signal = 'SIGTERM') {
      if (done) return;
      child.kill(signal);
      await exited;
    },
  };
}

export interface DeviceData {
  holding?: Record<number, number>;
  input?: Record<number, number>;
  coil?: Record<number, number>;
  discrete?: Record<number, number>;
}

/** A pymodbus device (Debian's python3-pymodbus) on TCP `port` or serial line `rtu`. */
export async function startDevice(
  dir: string,
  where: { tcp: number } | { rtu: string },
  data: DeviceData,
  options: { units?: number[]; limits?: string[] } = {},
): Promise<Child> {
  const file = path.join(
    dir,
    `device-${'tcp' in where ? where.tcp : path.basename(where.rtu)}.json`,
  );
  writeFileSync(file, JSON.stringify(data));
  const args = [
    DEVICE_SCRIPT,
    ...('tcp' in where ? ['--tcp', String(where.tcp)] : ['--rtu', where.rtu]),
    '--units',
    (options.units ?? [1]).join(','),
    '--data',
    file,
    ...(options.limits ?? []).flatMap((l) => ['--limit', l]),
  ];
  const device = track(spawn('/usr/bin/python3', args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  await device.waitFor(/serving/, 20_000);
  // The script says so before its server has bound the port: wait until it takes connections.
  if ('tcp' in where) await acceptsConnections(device, where.tcp);
  return device;
}

/**
 * A free port for a Modbus device, below the kernel's range of ephemeral ports: while the device
 * is away the edge keeps connecting to it, and a connection to 127.0.0.1 from an ephemeral port
 * equal to the one it calls connects the socket to itself, holding the port the device needs.
 */
export async function freeDevicePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

async function acceptsConnections(device: Child, port: number): Promise<void> {
  const start = Date.now();
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (device.child.exitCode !== null)
      throw new Error(`the Modbus device exited:\n${device.output()}`);
    if (Date.now() - start > 20_000)
      throw new Error(`the Modbus device does not listen on ${port}:\n${device.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A pseudo-terminal pair (socat): an RS-485 line in a box, one end for each side. */
export async function startSerialPair(dir: string): Promise<Child & { ends: [string, string] }> {
  const a = path.join(dir, 'tty-edge');
  const b = path.join(dir, 'tty-device');
  const socat = track(
    spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  await socat.waitFor(/starting data transfer loop/, 20_000);
  return Object.assign(socat, { ends: [a, b] as [string, string] });
}

/** Roost Edge as `npm run edge` runs it, in its own process. */
export function startEdge(args: string[]): Child {
  return track(
    spawn(process.execPath, ['--import', 'tsx', 'edge/main.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

const run = promisify(execFile);

/** Reads holding registers with mbpoll (a Modbus client nobody here wrote): raw signed words. */
export async function mbpollRead(port: number, address: number, count = 1): Promise<number[]> {
  const { stdout } = await run('mbpoll', [
    '-m',
    'tcp',
    '-p',
    String(port),
    '-a',
    '1',
    '-r',
    String(address + 1),
    '-c',
    String(count),
    '-1',
    '127.0.0.1',
  ]);
  return [...stdout.matchAll(/^\[\d+\]:\s+(-?\d+)/gm)].map((m) => Number(m[1]));
}

/** Writes one holding register with mbpoll, as someone at the controller's keypad changes it. */
export async function mbpollWrite(port: number, address: number, value: number): Promise<void> {
  await run('mbpoll', [
    '-m',
    'tcp',
    '-p',
    String(port),
    '-a',
    '1',
    '-r',
    String(address + 1),
    '-1',
    '127.0.0.1',
    String(value),
  ]);
}
