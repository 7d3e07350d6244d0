import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { startFaultProxy } from '../helpers/faultProxy';
import { startTestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';
import { freeDevicePort, startDevice, startEdge } from './edgeProcesses';

/** The Modbus TCP device's port, free on this machine (set before anything starts). */
let PORT = 0;
/**
 * The case is 10 minutes at a 5 s poll (120 readings). CI runs it scaled down to 24 s at
 * a 1 s poll (24 readings), with a SIGKILL and a restart of the edge in the middle of it; the
 * full case is `EDGE_OUTAGE_MINUTES=10 EDGE_POLL_SECONDS=5 npx vitest run tests/edge/outage.test.ts`.
 */
const OUTAGE_MS = Number(process.env.EDGE_OUTAGE_MINUTES ?? 0.4) * 60_000;
const POLL_S = Number(process.env.EDGE_POLL_SECONDS ?? 1);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(path.join(tmpdir(), 'roost-edge-outage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Roost Edge through a broker outage', () => {
  it(
    'stores every reading of the outage once and in order, through a SIGKILL of the edge',
    async () => {
      PORT = await freeDevicePort();
      const t = await startTestRoost(testDatabaseTargets()[0]!);
      const proxy = await startFaultProxy({ host: '127.0.0.1', port: t.roost.mqttPort! });
      const device = await startDevice(dir, { tcp: PORT }, { input: { 0: 215, 1: 600, 2: 900 } });
      const gw = t.roost.boot.demoGateways!.find((g) => g.farmName === 'Weifang Broiler Farm')!;
      const file = path.join(dir, 'edge.json');
      writeFileSync(
        file,
        JSON.stringify({
          mqttUrl: `mqtt://127.0.0.1:${proxy.port}`,
          dataDir: path.join(dir, 'data'),
          houses: [
            {
              name: gw.houseName,
              networkId: gw.networkId,
              token: gw.token,
              intervalSeconds: POLL_S,
              devices: [
                {
                  name: 'box',
                  profile: 'example-collector',
                  address: `tcp://127.0.0.1:${PORT}`,
                  pollSeconds: POLL_S,
                },
              ],
            },
          ],
        }),
      );
      let edge = startEdge(['--config', file]);
      const rows = () =>
        t.roost.database.query<{ ts: Date; seq: number }>(
          'select ts, seq from telemetry where house_id = $1 order by ts',
          [gw.houseId],
        );
      try {
        await waitFor(async () => ((await rows()).length >= 2 ? 1 : undefined), 90_000);
        proxy.cutOff();
        const cutAt = Date.now();
        await sleep(OUTAGE_MS / 2);
        await edge.kill('SIGKILL');
        const killedAt = Date.now();
        edge = startEdge(['--config', file]);
        await edge.waitFor(/roost-edge running/);
        const restartedAt = Date.now();
        await sleep(Math.max(0, cutAt + OUTAGE_MS - Date.now()));
        const restoredAt = Date.now();
        proxy.restore();
        const all = await waitFor(async () => {
          const r = await rows();
          return r.at(-1)!.ts.getTime() > restoredAt + 2000 ? r : undefined;
        }, 90_000);
        const seqs = all.map((r) => r.seq);
        // seq is the edge's store position: a gap would be a reading lost, a repeat one stored twice.
        expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i));
        // Readings made while cut off, before the kill (they were on disk only) and after it.
        const between = (from: number, to: number) =>
          all.filter((r) => r.ts.getTime() > from && r.ts.getTime() < to).length;
        expect(between(cutAt, killedAt)).toBeGreaterThanOrEqual(OUTAGE_MS / 1000 / POLL_S / 2 - 2);
        expect(between(restartedAt, restoredAt)).toBeGreaterThan(0);
      } finally {
        await edge.kill();
        await device.kill();
        await proxy.close();
        await t.stop();
      }
    },
    OUTAGE_MS + 300_000,
  );

  it('refuses to start with a malformed profile, naming its line', async () => {
    const profile = path.join(dir, 'bad-profile.json');
    writeFileSync(
      profile,
      [
        '{',
        '  "model": "Bad",',
        '  "points": [',
        '    { "metric": "temprature", "function": "input",',
        '      "register": 0 }',
        '  ]',
        '}',
      ].join('\n'),
    );
    const file = path.join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        mqttUrl: 'mqtt://127.0.0.1:1',
        houses: [
          {
            name: 'H',
            networkId: 'X',
            token: 'Y',
            devices: [{ name: 'c', profile, address: 'tcp://127.0.0.1:1' }],
          },
        ],
      }),
    );
    const edge = startEdge(['--config', file]);
    expect(await edge.exited).toBe(1);
    expect(edge.output()).toContain(
      `${profile}:line 4: points.0.metric: not a metric of the catalogue`,
    );

    writeFileSync(profile, ['{', '  "model": "Bad"', '  "points": []', '}'].join('\n'));
    const again = startEdge(['--config', file]);
    expect(await again.exited).toBe(1);
    expect(again.output()).toContain(`${profile}:line 3: expected "," or "}"`);
  }, 120_000);
});
