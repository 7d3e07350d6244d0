import { renameSync, copyFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import path from 'node:path';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayTopic } from '../../src/contract/gateway';
import { telemetry } from '../../server/db/telemetrySchema';
import { startSimulator } from '../../server/simulator/simulator';
import { testDatabaseTargets } from '../helpers/databases';
import { makeTestCa, type TestCa } from '../helpers/certificates';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';

/*
 * Gateways reach the embedded broker over the internet: MQTT over TLS with a certificate from
 * files the operator renews in place, and plain text kept on this machine. Real openssl
 * certificates, a real server on every address (HOST=0.0.0.0), real mqtt.js clients.
 */

const FARM = 'Gaocheng Broiler Farm';
const TOKEN = 'token-over-tls';
/** Another address of this machine's loopback: a listener bound to 127.0.0.1 does not answer it. */
const OTHER_LOOPBACK = '127.0.0.2';

const pglite = testDatabaseTargets()[0]!;

/** The fingerprint of the certificate the server at `port` presents now. */
function servedFingerprint(port: number, ca: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca }, () => {
      const peer: PeerCertificate = socket.getPeerCertificate();
      socket.destroy();
      resolve(peer.fingerprint256);
    });
    socket.once('error', reject);
  });
}

const fingerprintOf = (certFile: string) =>
  new X509Certificate(readFileSync(certFile)).fingerprint256;

/** Whether a TCP connection to host:port is accepted at all. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Connects an MQTT client and answers whether the broker let it in. */
function signsIn(url: string, options: mqtt.IClientOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 20_000, ...options });
    client.once('connect', () => {
      client.end(true);
      resolve(true);
    });
    const refused = () => {
      client.end(true);
      resolve(false);
    };
    client.once('error', refused);
    client.once('close', refused);
  });
}

describe('MQTT over TLS on the embedded broker', () => {
  let ca: TestCa;
  let t: TestRoost;
  let live: { certFile: string; keyFile: string };
  let tlsPort: number;

  beforeAll(async () => {
    ca = makeTestCa();
    const first = ca.issue('first');
    // The files the server is given, which a renewal replaces (as certbot's do).
    live = { certFile: path.join(ca.dir, 'live.pem'), keyFile: path.join(ca.dir, 'live.key') };
    copyFileSync(first.certFile, live.certFile);
    copyFileSync(first.keyFile, live.keyFile);
    t = await startTestRoost(pglite, {
      host: '0.0.0.0',
      mqttTls: { ...live, port: 0 },
      mqttPlainLoopback: true,
    });
    tlsPort = t.roost.mqttTlsPort!;
  });

  afterAll(async () => {
    await t?.stop();
    ca?.remove();
  });

  it('lets a gateway with the right CA sign in and publish a reading that is stored', async () => {
    const gw = await t.gatewayOf(FARM, 'House 1', TOKEN);
    const client = await mqtt.connectAsync(`mqtts://127.0.0.1:${tlsPort}`, {
      ca: ca.ca,
      username: gw.networkId,
      password: TOKEN,
      reconnectPeriod: 0,
    });
    const ts = Date.now();
    // QoS 1 is acknowledged only once stored.
    await client.publishAsync(
      gatewayTopic(gw.networkId, 'telemetry'),
      JSON.stringify({ ts, metrics: { temperature: 23.5 } }),
      { qos: 1 },
    );
    await client.endAsync();
    const rows = await t.roost.database.db
      .select({ ts: telemetry.ts })
      .from(telemetry)
      .where(eq(telemetry.gatewayId, gw.gatewayId));
    expect(rows.map((r) => r.ts.getTime())).toContain(ts);
  });

  it('is refused by a client that does not trust the certificate', async () => {
    const gw = await t.gatewayOf(FARM, 'House 2', TOKEN);
    expect(
      await signsIn(`mqtts://127.0.0.1:${tlsPort}`, { username: gw.networkId, password: TOKEN }),
    ).toBe(false);
  });

  it('fails a client speaking plain text to the TLS port', async () => {
    const gw = await t.gatewayOf(FARM, 'House 2', TOKEN);
    expect(
      await signsIn(`mqtt://127.0.0.1:${tlsPort}`, { username: gw.networkId, password: TOKEN }),
    ).toBe(false);
  });

  it('serves a certificate replaced on disk to the next connection, without a restart', async () => {
    expect(await servedFingerprint(tlsPort, ca.ca)).toBe(fingerprintOf(live.certFile));
    const renewed = ca.issue('renewed');
    const before = fingerprintOf(live.certFile);
    // Renewal as certbot does it: new files moved over the old ones.
    renameSync(renewed.keyFile, live.keyFile);
    renameSync(renewed.certFile, live.certFile);
    const after = fingerprintOf(live.certFile);
    expect(after).not.toBe(before);
    expect(await servedFingerprint(tlsPort, ca.ca)).toBe(after);
    // And gateways still sign in with it.
    const gw = await t.gatewayOf(FARM, 'House 1', TOKEN);
    expect(
      await signsIn(`mqtts://127.0.0.1:${tlsPort}`, {
        ca: ca.ca,
        username: gw.networkId,
        password: TOKEN,
      }),
    ).toBe(true);
  });

  it('keeps serving the working certificate while a renewal is half written', async () => {
    const serving = await servedFingerprint(tlsPort, ca.ca);
    // A new certificate whose key has not been written yet: the pair does not match.
    const next = ca.issue('next');
    copyFileSync(next.certFile, live.certFile);
    expect(await servedFingerprint(tlsPort, ca.ca)).toBe(serving);
    copyFileSync(next.keyFile, live.keyFile);
    expect(await servedFingerprint(tlsPort, ca.ca)).toBe(fingerprintOf(next.certFile));
  });

  it('keeps the plain-text listener on loopback while the TLS one answers every address', async () => {
    const plainPort = t.roost.mqttPort!;
    expect(await accepts('127.0.0.1', plainPort)).toBe(true);
    expect(await accepts(OTHER_LOOPBACK, plainPort)).toBe(false);
    expect(await accepts(OTHER_LOOPBACK, tlsPort)).toBe(true);
  });

  it('carries the simulator, told the CA, over TLS', async () => {
    const gateways = t.roost.boot.demoGateways!.slice(0, 1);
    const simulator = await startSimulator({
      url: `mqtts://127.0.0.1:${tlsPort}`,
      ca: ca.ca,
      gateways,
      intervalMs: 60_000,
      seed: 1,
    });
    try {
      await waitFor(() => (simulator.stats().connected === 1 ? true : undefined));
    } finally {
      await simulator.stop();
    }
  });
});

describe('MQTT over TLS with plain text asked for on every address', () => {
  let ca: TestCa;
  let t: TestRoost;

  beforeAll(async () => {
    ca = makeTestCa();
    t = await startTestRoost(pglite, {
      host: '0.0.0.0',
      mqttTls: { ...ca.issue('server'), port: 0 },
      mqttPlainLoopback: false,
    });
  });

  afterAll(async () => {
    await t?.stop();
    ca?.remove();
  });

  it('answers plain text on every address too', async () => {
    expect(await accepts(OTHER_LOOPBACK, t.roost.mqttPort!)).toBe(true);
  });
});
