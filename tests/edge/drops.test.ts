import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DROP_ALARM } from '../../edge/house';
import { testDatabaseTargets } from '../helpers/databases';
import { startFaultProxy } from '../helpers/faultProxy';
import { startTestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';
import { freeDevicePort, startDevice, startEdge } from './edgeProcesses';

const dir = mkdtempSync(path.join(tmpdir(), 'roost-edge-drops-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The store's smallest age limit (0.01 h, 36 s) and an outage well beyond it. */
const MAX_AGE_S = 36;
const OUTAGE_MS = 50_000;

describe('Roost Edge’s bounded store', () => {
  it('tells Roost how many readings it dropped, as an alarm of the house that ends once the backlog is sent', async () => {
    const port = await freeDevicePort();
    const t = await startTestRoost(testDatabaseTargets()[0]!);
    const proxy = await startFaultProxy({ host: '127.0.0.1', port: t.roost.mqttPort! });
    const device = await startDevice(dir, { tcp: port }, { input: { 0: 215, 1: 600, 2: 900 } });
    const gw = t.roost.boot.demoGateways!.find((g) => g.farmName === 'Weifang Broiler Farm')!;
    const file = path.join(dir, 'edge.json');
    writeFileSync(
      file,
      JSON.stringify({
        mqttUrl: `mqtt://127.0.0.1:${proxy.port}`,
        dataDir: path.join(dir, 'data'),
        buffer: { maxAgeHours: MAX_AGE_S / 3600 },
        statsMinutes: 0.25,
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
    const edge = startEdge(['--config', file]);
    const alarms = () =>
      t.roost.database.query<{ state: string; text: string | null }>(
        `select state, text from alarms where house_id = $1 and cause = 'controllerAlarm' and subject = $2 order by id`,
        [gw.houseId, DROP_ALARM],
      );
    try {
      await edge.waitFor(/connected to/, 90_000);
      proxy.cutOff();
      await sleep(OUTAGE_MS);
      proxy.restore();
      // The readings older than the age limit are dropped as the backlog goes, and counted.
      const raised = await waitFor(async () => {
        const rows = await alarms();
        return rows.length ? rows : undefined;
      }, 90_000);
      const count =
        /dropped (\d+) stored readings since it started: 0 \(store full\), (\d+) \(older than the age limit\)/.exec(
          raised[0]!.text ?? '',
        );
      expect(count).not.toBeNull();
      // About OUTAGE_MS - MAX_AGE_S readings of one a second (the edge's own timing is loose).
      expect(Number(count![1])).toBe(Number(count![2]));
      expect(Number(count![1])).toBeGreaterThanOrEqual((OUTAGE_MS / 1000 - MAX_AGE_S) / 2);
      expect(Number(count![1])).toBeLessThanOrEqual(OUTAGE_MS / 1000);
      // The edge's log says it too, in its stats line.
      await edge.waitFor(/stats: .*dropped 0 \(store full\) [1-9]\d* \(too old\)/, 60_000);
      // Once the backlog is sent the alarm ends: nothing more is being lost.
      await waitFor(
        async () => ((await alarms()).every((a) => a.state === 'cleared') ? 1 : undefined),
        60_000,
      );
    } finally {
      await edge.kill();
      await device.kill();
      await proxy.close();
      await t.stop();
    }
  }, 300_000);
});
