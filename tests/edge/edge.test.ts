import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, GatewayDetails } from '../../src/contract/envcontrol';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';
import {
  mbpollRead,
  mbpollWrite,
  freeDevicePort,
  startDevice,
  startEdge,
  startSerialPair,
  type Child,
  type DeviceData,
} from './edgeProcesses';

/** The Modbus TCP device's port, free on this machine (set before anything starts). */
let PORT = 0;
/** Poll and reading interval of this test's edge: 1 s. */
const POLL_MS = 1000;

/** The example environment controller's registers, as its keypad left them. */
const CONTROLLER: DeviceData = {
  // 21.5 ℃, 62.3 %, 1450 ppm, probe 1 not connected (−32768), probe 2 19.8 ℃
  input: { 0: 215, 1: 623, 2: 1450, 3: 0x8000, 4: 198, 5: 52, 8: 3 },
  // run mode 5 = tunnel (Roost 13), target 22.0 ℃, set-points
  holding: { 20: 5, 21: 220, 100: 15, 101: 20, 102: 340, 103: 150, 104: 60, 105: 300, 106: 35 },
};
/** The example collector on the RS-485 line: 18.2 ℃, 70.1 %, 2100 ppm, NH3 12.5 ppm. */
const COLLECTOR: DeviceData = { input: { 0: 182, 1: 701, 2: 2100, 3: 125, 4: 30, 5: 152 } };

const target = testDatabaseTargets()[0]!;

describe('Roost Edge against Modbus devices (pymodbus over TCP and RTU)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'roost-edge-test-'));
  let t: TestRoost;
  let admin: string;
  let controller: Child;
  let collector: Child;
  let line: Child & { ends: [string, string] };
  let edge: Child;
  let houseA: { houseId: number; networkId: string };
  let houseB: { houseId: number; networkId: string };

  const latest = async (houseId: number) =>
    (
      await t.roost.database.query<{
        ts: Date;
        temperature: number | null;
        humidity: number | null;
        co2: number | null;
        nh3: number | null;
        temperature_2: number | null;
        mode: number | null;
        faults: Record<string, string> | null;
      }>(
        'select ts, temperature, humidity, co2, nh3, temperature_2, mode, faults from telemetry where house_id = $1 order by ts desc limit 1',
        [houseId],
      )
    )[0];
  const house = (houseId: number) =>
    t.api<GatewayDetails>(admin, `/envcontrol/house?houseId=${houseId}`).then((r) => r.body.data);
  const finalCommand = (houseId: number, id: string) =>
    waitFor(async () => {
      const c = (await house(houseId)).commands.find((x) => x.id === id);
      return c && c.state !== 'queued' && c.state !== 'sent' ? c : undefined;
    });
  const send = async (houseId: number, params: Record<string, number>) => {
    const sent = await t.api<{ commands: Command[] }>(admin, '/envcontrol/send', {
      houseIds: [houseId],
      params,
    });
    expect(sent.status).toBe(200);
    return finalCommand(houseId, sent.body.data.commands[0]!.id);
  };

  beforeAll(async () => {
    PORT = await freeDevicePort();
    t = await startTestRoost(target);
    admin = await t.signIn('admin');
    const demo = t.roost.boot.demoGateways!.filter((g) => g.farmName === 'Weifang Broiler Farm');
    const [a, b] = demo;
    houseA = { houseId: a!.houseId, networkId: a!.networkId };
    houseB = { houseId: b!.houseId, networkId: b!.networkId };
    controller = await startDevice(dir, { tcp: PORT }, CONTROLLER, { limits: ['100:0:30'] });
    line = await startSerialPair(dir);
    collector = await startDevice(dir, { rtu: line.ends[1] }, COLLECTOR);
    const config = {
      mqttUrl: t.mqttUrl,
      dataDir: path.join(dir, 'data'),
      houses: [
        {
          name: a!.houseName,
          networkId: a!.networkId,
          token: a!.token,
          intervalSeconds: POLL_MS / 1000,
          devices: [
            {
              name: 'climate',
              profile: 'example-environment-controller',
              address: `tcp://127.0.0.1:${PORT}`,
              timeoutMs: 300,
              retries: 0,
            },
          ],
        },
        // The second house's credentials live in the credentials file, as enrolment writes them.
        {
          name: b!.houseName,
          intervalSeconds: POLL_MS / 1000,
          devices: [
            {
              name: 'sensors',
              profile: 'example-collector',
              address: `rtu://${line.ends[0]}?baud=9600`,
              timeoutMs: 500,
            },
          ],
        },
      ],
    };
    const file = path.join(dir, 'edge.json');
    writeFileSync(file, JSON.stringify(config, null, 2));
    writeFileSync(
      `${file}.credentials.json`,
      JSON.stringify({ houses: { [b!.houseName]: { networkId: b!.networkId, token: b!.token } } }),
      { mode: 0o600 },
    );
    edge = startEdge(['--config', file]);
    await edge.waitFor(/roost-edge running/);
  }, 180_000);

  afterAll(async () => {
    await edge?.kill();
    await controller?.kill();
    await collector?.kill();
    await line?.kill();
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts the controller’s and the collector’s readings on their houses, scaled, with run mode and faults', async () => {
    const a = await waitFor(async () => {
      const row = await latest(houseA.houseId);
      return row?.temperature != null ? row : undefined;
    });
    expect(a.temperature).toBeCloseTo(21.5, 5);
    expect(a.humidity).toBeCloseTo(62.3, 5);
    expect(a.co2).toBe(1450);
    expect(a.temperature_2).toBeCloseTo(19.8, 5);
    expect(a.mode).toBe(13);
    expect(a.faults).toMatchObject({ temperature_1: 'notConnected' });
    const b = await waitFor(async () => {
      const row = await latest(houseB.houseId);
      return row?.temperature != null ? row : undefined;
    });
    expect(b.temperature).toBeCloseTo(18.2, 5);
    expect(b.humidity).toBeCloseTo(70.1, 5);
    expect(b.nh3).toBeCloseTo(12.5, 5);
    // The controller's parameters reached House Setting from its registers.
    const params = await waitFor(async () => {
      const p = (await house(houseA.houseId)).params;
      return p.heat_offset !== undefined ? p : undefined;
    });
    expect(params).toMatchObject({
      heat_offset: 1.5,
      cool_offset: 2,
      alarm_temp_high: 34,
      inlet_open_pct: 35,
    });
    expect(edge.output()).not.toContain(t.roost.boot.demoGateways![0]!.token);
  });

  it('writes a set-point sent from the console to the register and shows the value read back', async () => {
    const c = await send(houseA.houseId, { heat_offset: 2.5, alarm_temp_high: 35.5 });
    expect(c.state).toBe('applied');
    expect(c.readBack).toEqual({ heat_offset: 2.5, alarm_temp_high: 35.5 });
    expect(await mbpollRead(PORT, 100)).toEqual([25]);
    expect(await mbpollRead(PORT, 102)).toEqual([355]);
  });

  it('shows a write the controller refuses as rejected, with the exception’s meaning', async () => {
    const c = await send(houseA.houseId, { heat_offset: 4 });
    expect(c.state).toBe('rejected');
    expect(c.reason).toMatch(
      /Modbus exception 3: illegal data value: the controller refused the value/,
    );
    expect(await mbpollRead(PORT, 100)).toEqual([25]);
  });

  it('sends a change made at the controller as a local modify record', async () => {
    await mbpollWrite(PORT, 103, 120);
    const record = await waitFor(async () => {
      const r = await t.api<{ rows: Array<{ key: string; newValue: number; source: string }> }>(
        admin,
        `/envcontrol/records?houseId=${houseA.houseId}`,
      );
      return r.body.data.rows.find((x) => x.key === 'alarm_temp_low' && x.source === 'local');
    });
    expect(record.newValue).toBe(12);
  });

  it('reports a controller that stops answering as a fault within 3 polls, and clears it when it answers', async () => {
    await controller.kill('SIGKILL');
    const stoppedAt = Date.now();
    await waitFor(async () => {
      const row = await latest(houseA.houseId);
      return row && row.ts.getTime() > stoppedAt + 3 * POLL_MS ? row : undefined;
    }).catch((error: Error) => {
      throw new Error(`${error.message}; the edge said:\n${edge.output()}`);
    });
    const after = await t.roost.database.query<{ ts: Date; faults: Record<string, string> | null }>(
      'select ts, faults from telemetry where house_id = $1 and ts >= $2 order by ts',
      [houseA.houseId, new Date(stoppedAt + 3 * POLL_MS)],
    );
    expect(after.length).toBeGreaterThan(0);
    for (const row of after)
      expect(row.faults).toMatchObject({ temperature: 'notConnected', co2: 'notConnected' });
    controller = await startDevice(dir, { tcp: PORT }, CONTROLLER, { limits: ['100:0:30'] });
    const back = await waitFor(async () => {
      const row = await latest(houseA.houseId);
      return row?.temperature != null ? row : undefined;
    });
    expect(back.temperature).toBeCloseTo(21.5, 5);
  }, 120_000);
});
