import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTestCa } from '../helpers/certificates';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';
import { freeDevicePort, startDevice, startEdge } from './edgeProcesses';

const dir = mkdtempSync(path.join(tmpdir(), 'roost-edge-tls-'));
const ca = makeTestCa();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  ca.remove();
});

/*
 * An edge on a farm reaches Roost over the internet: mqtts:// to the embedded broker's TLS
 * listener, whose certificate (made by openssl) is signed by an authority of the operator's
 * own, given to the edge as its `caFile`.
 */
describe('Roost Edge over TLS', () => {
  it('sends its readings over mqtts:// trusting the CA file it is given, and refuses the broker without it', async () => {
    const port = await freeDevicePort();
    const t = await startTestRoost(testDatabaseTargets()[0]!, {
      mqttTls: { ...ca.issue('broker'), port: 0 },
    });
    const device = await startDevice(dir, { tcp: port }, { input: { 0: 215, 1: 600, 2: 900 } });
    const gw = t.roost.boot.demoGateways!.find((g) => g.farmName === 'Weifang Broiler Farm')!;
    const config = (name: string, caFile?: string) => {
      const file = path.join(dir, `${name}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          mqttUrl: `mqtts://127.0.0.1:${t.roost.mqttTlsPort}`,
          ...(caFile ? { caFile } : {}),
          dataDir: path.join(dir, `${name}-data`),
          houses: [
            {
              name: gw.houseName,
              networkId: gw.networkId,
              token: gw.token,
              intervalSeconds: 1,
              devices: [
                { name: 'box', profile: 'example-collector', address: `tcp://127.0.0.1:${port}` },
              ],
            },
          ],
        }),
      );
      return file;
    };
    const rows = () =>
      t.roost.database.query<{ temperature: number }>(
        'select temperature from telemetry where house_id = $1 order by ts',
        [gw.houseId],
      );
    // Without the CA the broker's certificate is not trusted: nothing is sent, the log says why.
    const untrusting = startEdge(['--config', config('no-ca')]);
    try {
      await untrusting.waitFor(/certificate/i, 60_000);
      expect(untrusting.output()).not.toContain('connected to');
    } finally {
      await untrusting.kill();
    }
    expect(await rows()).toEqual([]);
    const edge = startEdge(['--config', config('with-ca', ca.caFile)]);
    try {
      await edge.waitFor(/connected to mqtts:/, 60_000);
      const stored = await waitFor(async () => {
        const r = await rows();
        return r.length >= 2 ? r : undefined;
      }, 60_000);
      expect(stored[0]!.temperature).toBe(21.5);
      expect(edge.output()).not.toContain(gw.token);
    } finally {
      await edge.kill();
      await device.kill();
      await t.stop();
    }
  }, 300_000);
});
