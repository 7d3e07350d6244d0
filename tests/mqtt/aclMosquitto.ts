import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/processes';

export interface AclMosquitto {
  port: number;
  /** Gives a user a password (a gateway: its network id and device token); applied at once. */
  addUser(name: string, password: string): void;
  stop(): Promise<void>;
}

/**
 * A Mosquitto of the test's own that signs every client in from a password file and holds it to
 * `acl` (the lines of an `acl_file`), as a deployment's external broker does. Needs the
 * `mosquitto` and `mosquitto_passwd` programs (Debian's package).
 */
export async function startAclMosquitto(acl: readonly string[]): Promise<AclMosquitto> {
  const dir = mkdtempSync(path.join(tmpdir(), 'roost-acl-mosquitto-'));
  const port = await freePort();
  const passwords = path.join(dir, 'passwords');
  writeFileSync(passwords, '', { mode: 0o600 });
  writeFileSync(path.join(dir, 'acl'), `${acl.join('\n')}\n`);
  const conf = path.join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `password_file ${passwords}`,
      `acl_file ${path.join(dir, 'acl')}`,
      'persistence false',
      'log_dest none',
      // Started by root, Mosquitto would become its own user, who may not read the test's
      // private files; a user other than root is not switched.
      'user root',
    ].join('\n') + '\n',
  );
  const child: ChildProcess = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`mosquitto could not start (${error.message}): apt-get install mosquitto`)),
    );
    void listening(port).then(resolve, reject);
  });
  return {
    port,
    addUser(name, password) {
      const made = spawnSync('mosquitto_passwd', ['-b', passwords, name, password]);
      if (made.status !== 0) throw new Error(`mosquitto_passwd: ${made.stderr.toString()}`);
      // Mosquitto reads its password and ACL files again on SIGHUP.
      child.kill('SIGHUP');
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill();
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once something accepts connections on the port (at most 10 s). */
async function listening(port: number): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
