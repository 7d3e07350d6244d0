import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasProblem, runDoctor, type Finding } from '../../server/ops/doctor';
import { makeTestCa, type TestCa } from '../helpers/certificates';
import { waitFor } from '../helpers/waitFor';
import { startAclMosquitto, type AclMosquitto } from '../mqtt/aclMosquitto';

/*
 * `npm run doctor` on configurations an operator gets wrong: real certificate files made with
 * openssl, a Mosquitto of the test's own that knows Roost's password, a port where no database listens.
 */

const problems = (findings: Finding[]) =>
  findings.filter((f) => f.level === 'problem').map((f) => `${f.text} → ${f.fix ?? ''}`);

/** A port nothing listens on: bound, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run doctor', () => {
  let ca: TestCa;
  let pair: { certFile: string; keyFile: string };
  let other: { certFile: string; keyFile: string };
  let dataDir: string;
  let broker: AclMosquitto;
  let brokerPort: number;
  /** A configuration with nothing wrong; each test spoils one thing. */
  let good: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ca = makeTestCa();
    pair = ca.issue('server');
    other = ca.issue('other');
    dataDir = mkdtempSync(path.join(tmpdir(), 'roost-doctor-'));
    broker = await startAclMosquitto(['user roost', 'topic readwrite roost/#']);
    broker.addUser('roost', 'broker-password-1');
    brokerPort = broker.port;
    // Mosquitto reads the password file again on a signal: wait until Roost's user is known.
    await waitFor(() =>
      mqtt
        .connectAsync(`mqtt://127.0.0.1:${brokerPort}`, {
          username: 'roost',
          password: 'broker-password-1',
          reconnectPeriod: 0,
        })
        .then(
          (c) => c.endAsync().then(() => true),
          () => undefined,
        ),
    );
    good = {
      DATA_DIR: dataDir,
      MQTT_URL: `mqtt://roost:broker-password-1@127.0.0.1:${brokerPort}`,
      ROOST_PUBLIC_URL: 'https://roost.example.com',
      ROOST_ADMIN_PASSWORD: 'a-long-admin-password',
      ROOST_WEBHOOK_SECRET: 'a-webhook-secret-of-32-characters',
    };
  });

  afterAll(async () => {
    await broker?.stop();
    ca?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds nothing wrong in a good configuration', async () => {
    const findings = await runDoctor(good);
    expect(problems(findings)).toEqual([]);
    expect(findings.map((f) => f.text)).toContain(
      `the broker at mqtt://127.0.0.1:${brokerPort} lets Roost in`,
    );
  });

  it('finds a missing key file', async () => {
    const found = problems(
      await runDoctor({
        ...good,
        MQTT_URL: undefined,
        MQTT_TLS_CERT: pair.certFile,
        MQTT_TLS_KEY: path.join(ca.dir, 'gone.key'),
      }),
    );
    expect(found).toEqual([expect.stringMatching(/MQTT_TLS_KEY: .*gone\.key does not exist/)]);
  });

  it('finds a key that does not match the certificate', async () => {
    const found = problems(
      await runDoctor({
        ...good,
        MQTT_URL: undefined,
        MQTT_TLS_CERT: pair.certFile,
        MQTT_TLS_KEY: other.keyFile,
      }),
    );
    expect(found).toEqual([expect.stringContaining('does not belong to the certificate')]);
    // The matching pair passes.
    const key = path.join(ca.dir, 'copy.key');
    copyFileSync(pair.keyFile, key);
    const fine = await runDoctor({
      ...good,
      MQTT_URL: undefined,
      MQTT_TLS_CERT: pair.certFile,
      MQTT_TLS_KEY: key,
    });
    expect(problems(fine)).toEqual([]);
  });

  it('finds a database it cannot reach', async () => {
    const port = await closedPort();
    const found = problems(
      await runDoctor({ ...good, DATABASE_URL: `postgres://roost@127.0.0.1:${port}/roost` }),
    );
    expect(found).toEqual([
      expect.stringContaining(`the PostgreSQL database at 127.0.0.1:${port} cannot be reached`),
    ]);
  });

  it('finds a broker that refuses Roost', async () => {
    const found = problems(
      await runDoctor({ ...good, MQTT_URL: `mqtt://roost:wrong@127.0.0.1:${brokerPort}` }),
    );
    expect(found).toEqual([expect.stringContaining('refuses Roost')]);
  });

  it('finds a secret shorter than allowed', async () => {
    expect(problems(await runDoctor({ ...good, ROOST_WEBHOOK_SECRET: 'short' }))).toEqual([
      expect.stringContaining('ROOST_WEBHOOK_SECRET must have at least 16 characters'),
    ]);
    expect(problems(await runDoctor({ ...good, ROOST_ADMIN_PASSWORD: 'short123' }))).toEqual([
      expect.stringContaining('ROOST_ADMIN_PASSWORD has 8 characters'),
    ]);
  });

  it('finds a public address that is not https', async () => {
    const findings = await runDoctor({ ...good, ROOST_PUBLIC_URL: 'http://roost.example.com' });
    expect(problems(findings)).toEqual([expect.stringContaining('is not https')]);
    expect(hasProblem(findings)).toBe(true);
  });

  it('exits 1 and says what to fix from the command line', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/ops/doctorCli.ts'], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        ROOST_PUBLIC_URL: 'https://roost.example.com',
        ROOST_WEBHOOK_SECRET: 'x',
      },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('PROBLEM  ROOST_WEBHOOK_SECRET must have at least 16 characters');
    expect(run.stdout).toContain('1 problem to fix before starting Roost.');
  });
});
