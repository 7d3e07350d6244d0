import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listening } from '../helpers/listening';
import { freePort } from '../helpers/processes';
import { selfSignedCertificate } from './kitNginx';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface KitMosquitto {
  /** Gateways' MQTT over TLS. */
  tlsPort: number;
  /** Roost's own processes, plain text on loopback. */
  localPort: number;
  /** The self-signed certificate (PEM) the TLS listener serves: the gateways' CA. */
  cert: Buffer;
  /** The dynamic security plugin's administrator, as the kit's script makes it. */
  admin: { username: string; password: string };
  /** MQTT_URL of Roost's own user, as the kit's script makes it. */
  roostUrl: string;
  stop(): Promise<void>;
}

/**
 * Debian's Mosquitto with the kit's own file (deploy/mosquitto/roost.conf, its {{…}} words
 * replaced) and accounts made by the kit's script (deploy/mosquitto/init-dynsec.sh), run twice
 * as the README says: once before the start, once against the running broker.
 */
export async function startKitMosquitto(): Promise<KitMosquitto> {
  const dir = mkdtempSync(path.join(tmpdir(), 'roost-kit-mosquitto-'));
  mkdirSync(path.join(dir, 'persistence'));
  const { cert, key } = selfSignedCertificate(dir);
  const [tlsPort, localPort] = [await freePort(), await freePort()];
  const dynsecFile = path.join(dir, 'dynamic-security.json');
  const admin = { username: 'roost-admin', password: 'kit-admin-password-1234' };
  const roostPassword = 'kit-roost-password-1234';
  const script = path.join(ROOT, 'deploy/mosquitto/init-dynsec.sh');
  const init = () => {
    const run = spawnSync(
      'bash',
      [script, dynsecFile, admin.password, roostPassword, String(localPort)],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`init-dynsec.sh: ${run.stderr}${run.stdout}`);
  };
  init();
  const conf = readFileSync(path.join(ROOT, 'deploy/mosquitto/roost.conf'), 'utf8')
    .replaceAll('{{MQTTS_PORT}}', String(tlsPort))
    .replaceAll('{{LOCAL_PORT}}', String(localPort))
    .replaceAll('{{CERT}}', cert)
    .replaceAll('{{KEY}}', key)
    .replaceAll('{{DYNSEC_FILE}}', dynsecFile)
    .replaceAll('{{PERSISTENCE_DIR}}', `${dir}/persistence/`);
  if (/{{[A-Z_0-9]+}}/.test(conf))
    throw new Error('a {{word}} of the kit’s Mosquitto file is not replaced');
  const file = path.join(dir, 'mosquitto.conf');
  // The test's files are its own user's: Mosquitto run as root must not switch to `mosquitto`.
  writeFileSync(file, `${conf}\nlog_dest none\n${process.getuid?.() === 0 ? 'user root\n' : ''}`);
  const child: ChildProcess = spawn('mosquitto', ['-c', file], { stdio: 'ignore' });
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`mosquitto could not start (${error.message}): apt-get install mosquitto`)),
    );
    child.once('exit', (code) => reject(new Error(`mosquitto exited ${code}`)));
    void Promise.all([listening(tlsPort), listening(localPort)]).then(() => resolve(), reject);
  });
  init();
  return {
    tlsPort,
    localPort,
    cert: readFileSync(cert),
    admin,
    roostUrl: `mqtt://roost:${roostPassword}@127.0.0.1:${localPort}`,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill();
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
