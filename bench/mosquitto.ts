import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GATEWAY_PUBLISHES, GATEWAY_SUBSCRIBES } from '../src/contract/gateway';
import { freePort } from '../tests/helpers/processes';

export interface Mosquittos {
  /** Each broker's port; the first is the hub Roost connects to. */
  ports: number[];
  stop(): Promise<void>;
}

/**
 * `count` Mosquitto brokers of the bench's own (nothing kept on disk, so no session of an
 * earlier run takes a share of the readings): the first is the hub, and each other one bridges
 * its gateways' topics to it, as a site does whose gateways are more than one broker process
 * may hold sockets for. Needs the `mosquitto` program (Debian's package).
 */
export async function startMosquittos(count: number): Promise<Mosquittos> {
  const dir = mkdtempSync(path.join(tmpdir(), 'roost-mosquitto-'));
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const children: ChildProcess[] = [];
  try {
    for (const [i, port] of ports.entries()) {
      const file = path.join(dir, `broker${i}.conf`);
      writeFileSync(
        file,
        [
          `listener ${port} 127.0.0.1`,
          'allow_anonymous true',
          'persistence false',
          // Its log would fill a pipe nobody reads (and then stop the broker) or the disk.
          'log_dest none',
          // Roost's sessions hold up to its Receive Maximum; the bridge's queue takes a burst.
          'max_queued_messages 100000',
          ...(i === 0
            ? []
            : [
                `connection hub${i}`,
                `address 127.0.0.1:${ports[0]}`,
                // What gateways publish goes to the hub; the commands for them come back.
                ...GATEWAY_PUBLISHES.map((kind) => `topic roost/v1/+/${kind} out 1`),
                ...GATEWAY_SUBSCRIBES.map((kind) => `topic roost/v1/+/${kind} in 1`),
                'cleansession true',
              ]),
        ].join('\n') + '\n',
      );
      const child = spawn('mosquitto', ['-c', file], { stdio: 'ignore' });
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        child.once('error', (error) =>
          reject(
            new Error(`mosquitto could not start (${error.message}): apt-get install mosquitto`),
          ),
        );
        void listening(port).then(resolve, reject);
      });
    }
  } catch (error) {
    for (const child of children) child.kill();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    ports,
    async stop() {
      await Promise.all(
        children.map((child) => {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill();
          return exited;
        }),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function listening(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`mosquitto did not listen on ${port}`);
}
