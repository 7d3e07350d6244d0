import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { MqttClient } from 'mqtt';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';

const telemetryTopic = (id: string) => `roost/v1/${id}/telemetry`;
const publish = (client: MqttClient, id: string, message: unknown) =>
  client.publishAsync(
    telemetryTopic(id),
    typeof message === 'string' ? message : JSON.stringify(message),
    { qos: 1 },
  );

/** The reasons of the rejections a spied logger's warn() was given, in order. */
function loggedReasons(warn: MockInstance): string[] {
  return warn.mock.calls
    .map(([fields]) => (fields as { reason?: string } | undefined)?.reason)
    .filter((reason): reason is string => typeof reason === 'string');
}

describe.each(testDatabaseTargets())('ingesting telemetry on $name', (target) => {
  let t: TestRoost;
  let gw: { networkId: string; houseId: number; gatewayId: number };
  let client: MqttClient;
  const rawCount = async (houseId: number) =>
    Number(
      (
        await t.roost.database.query<{ n: string }>(
          'select count(*) as n from telemetry where house_id = $1',
          [houseId],
        )
      )[0]!.n,
    );

  beforeAll(async () => {
    t = await startTestRoost(target);
    gw = await t.gatewayOf('Weifang Broiler Farm', 'House 4', 'token-w4');
    client = await t.gateway(gw.networkId, 'token-w4');
  });
  afterAll(() => t?.stop());

  it('stores a QoS 1 reading before acknowledging it, and a resent one only once', async () => {
    const ts = Date.now() - 60_000;
    await publish(client, gw.networkId, {
      ts,
      seq: 1,
      metrics: { temperature: 24.5, humidity: 61, co2: 1200 },
      mode: 1,
    });
    // The PUBACK has arrived: the row must already be there.
    expect(await rawCount(gw.houseId)).toBe(1);
    await publish(client, gw.networkId, {
      ts,
      seq: 1,
      metrics: { temperature: 24.5, humidity: 61, co2: 1200 },
      mode: 1,
    });
    expect(await rawCount(gw.houseId)).toBe(1);
    const [row] = await t.roost.database.query<{ temperature: number; co2: number; mode: number }>(
      'select temperature, co2, mode from telemetry where house_id = $1',
      [gw.houseId],
    );
    expect(row).toEqual({ temperature: 24.5, co2: 1200, mode: 1 });
    expect(t.roost.ingest.counters.snapshot()).toMatchObject({ stored: 1, duplicates: 1 });
  });

  it('refuses, counts and logs bad messages, and still takes the next good one', async () => {
    const warn = vi.spyOn(t.roost.ingest.log, 'warn');
    const before = t.roost.ingest.counters.snapshot().rejected;
    const base = Date.now() - 50_000;
    await publish(client, gw.networkId, '{"ts": 1, "metrics": ');
    await publish(client, gw.networkId, { ts: base, metrics: { temperature: 20, unicorns: 3 } });
    await publish(client, gw.networkId, { ts: base, metrics: { temperature: 400 } });
    await publish(client, gw.networkId, { ts: base, metrics: { humidity: 'wet' } });
    await publish(client, gw.networkId, {
      ts: Date.now() + 3_600_000,
      metrics: { temperature: 20 },
    });
    const after = t.roost.ingest.counters.snapshot().rejected;
    expect(after.malformed - before.malformed).toBe(1);
    expect(after.unknownMetric - before.unknownMetric).toBe(1);
    expect(after.outOfRange - before.outOfRange).toBe(1);
    expect(after.schema - before.schema).toBe(1);
    expect(after.clock - before.clock).toBe(1);
    expect(loggedReasons(warn)).toEqual([
      'malformed',
      'unknownMetric',
      'outOfRange',
      'schema',
      'clock',
    ]);
    warn.mockRestore();
    const stored = await rawCount(gw.houseId);
    await publish(client, gw.networkId, { ts: base + 1000, metrics: { temperature: 21 } });
    expect(await rawCount(gw.houseId)).toBe(stored + 1);
  });

  it('refuses a wrong device token and a foreign topic', async () => {
    const warn = vi.spyOn(t.roost.ingest.log, 'warn');
    const before = t.roost.ingest.counters.snapshot().rejected.badToken;
    await expect(t.gateway(gw.networkId, 'not-the-token')).rejects.toThrow(
      /Bad username or password|Not authorized/i,
    );
    expect(t.roost.ingest.counters.snapshot().rejected.badToken).toBe(before + 1);
    const other = await t.gatewayOf('Weifang Broiler Farm', 'House 5', 'token-w5');
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(
      telemetryTopic(other.networkId),
      JSON.stringify({ ts: Date.now(), metrics: { temperature: 20 } }),
      { qos: 1 },
    );
    await closed;
    expect(await rawCount(other.houseId)).toBe(0);
    expect(loggedReasons(warn)).toEqual(['badToken', 'badTopic']);
    warn.mockRestore();
    client = await t.gateway(gw.networkId, 'token-w4');
  });

  it('stores sentinels as what they mean: a fault, never a number in trends', async () => {
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000;
    const p = await t.gatewayOf('Weifang Broiler Farm', 'House 6', 'token-w6');
    const c = await t.gateway(p.networkId, 'token-w6');
    await publish(c, p.networkId, {
      ts: hour + 60_000,
      metrics: { temperature: 20, temperature_2: -999 },
    });
    await publish(c, p.networkId, {
      ts: hour + 120_000,
      metrics: { temperature: 22, temperature_2: 19 },
    });
    await publish(c, p.networkId, {
      ts: hour + 180_000,
      metrics: { temperature: 24, temperature_2: -998 },
    });
    await t.roost.maintenance.runNow();
    const res = await fetch(
      `${t.url}/api/trend/house?houseId=${p.houseId}&metrics=temperature,temperature_2&from=${hour}&to=${hour + 3_600_000}&granularity=hour`,
      {
        headers: { authorization: `Bearer ${await t.signIn('admin')}` },
      },
    );
    const trend = (await res.json()) as {
      data: {
        times: number[];
        series: Record<string, { avg: number[]; min: number[]; max: number[] }>;
      };
    };
    expect(trend.data.times).toEqual([hour]);
    expect(trend.data.series.temperature).toEqual({ avg: [22], min: [20], max: [24] });
    expect(trend.data.series.temperature_2).toEqual({ avg: [19], min: [19], max: [19] });
    const overview = await fetch(`${t.url}/api/overview/listOverview/?houseId=${p.houseId}`, {
      headers: { authorization: `Bearer ${await t.signIn('admin')}` },
    }).then(
      (r) =>
        r.json() as Promise<{
          data: {
            rows: Array<{
              live: { metrics: Record<string, number>; faults: Record<string, string> };
            }>;
          };
        }>,
    );
    expect(overview.data.rows[0]!.live.faults).toEqual({ temperature_2: 'notConfigured' });
    expect(overview.data.rows[0]!.live.metrics).toEqual({ temperature: 24 });
  });

  it('rolls up hours and days exactly, whatever the order and resends', async () => {
    const p = await t.gatewayOf('Gaocheng Broiler Farm', 'House 1', 'token-g1');
    const c = await t.gateway(p.networkId, 'token-g1');
    const day = Date.now() - 3 * 86_400_000;
    const hour = Math.floor(day / 3_600_000) * 3_600_000;
    const values = [18, 20, 22, 24, 26, 28];
    for (const [i, v] of values.entries()) {
      await publish(c, p.networkId, {
        ts: hour + i * 60_000,
        metrics: { temperature: v, water: 10 },
      });
    }
    await t.roost.maintenance.runNow();
    // A late resend of the first reading changes nothing.
    await publish(c, p.networkId, { ts: hour, metrics: { temperature: 18, water: 10 } });
    await t.roost.maintenance.runNow();
    const auth = { authorization: `Bearer ${await t.signIn('admin')}` };
    const hourly = await fetch(
      `${t.url}/api/trend/house?houseId=${p.houseId}&metrics=temperature,water&from=${hour}&to=${hour + 3_600_000}&granularity=hour`,
      { headers: auth },
    ).then(
      (r) =>
        r.json() as Promise<{
          data: { series: Record<string, { avg: number[]; min: number[]; max: number[] }> };
        }>,
    );
    expect(hourly.data.series.temperature).toEqual({ avg: [23], min: [18], max: [28] });
    expect(hourly.data.series.water!.avg).toEqual([60]);
    const daily = await fetch(
      `${t.url}/api/trend/house?houseId=${p.houseId}&metrics=water&from=${hour - 86_400_000}&to=${hour + 86_400_000}&granularity=day`,
      { headers: auth },
    ).then((r) => r.json() as Promise<{ data: { series: Record<string, { avg: number[] }> } }>);
    expect(daily.data.series.water!.avg).toEqual([60]);
  });

  it('keeps every hourly rollup equal to its raw rows, with resends racing their originals', async () => {
    const p = await t.gatewayOf('Gaocheng Broiler Farm', 'House 2', 'token-g2');
    const c = await t.gateway(p.networkId, 'token-g2');
    const start = Math.floor((Date.now() - 5 * 86_400_000) / 3_600_000) * 3_600_000;
    const messages = Array.from({ length: 120 }, (_, i) => ({
      // Three hours, out of order; some metrics missing, one a sentinel (a fault, no number).
      ts: start + ((i * 37) % 120) * 90_000,
      metrics: {
        temperature: 15 + ((i * 7) % 13) + 0.1,
        humidity: i % 5 === 0 ? -999 : 50 + (i % 9),
        ...(i % 3 === 0 ? {} : { co2: 800 + i }),
      },
    }));
    // Everything at once, each message twice: a batch may hold a reading and its resend.
    await Promise.all([...messages, ...messages].map((m) => publish(c, p.networkId, m)));
    await t.roost.maintenance.runNow();
    const metrics = ['temperature', 'humidity', 'co2'];
    const aggregates = metrics
      .map(
        (k) =>
          `min("${k}") as ${k}_min, max("${k}") as ${k}_max, count("${k}")::int as ${k}_n, round(sum("${k}")::numeric, 2)::float8 as ${k}_sum`,
      )
      .join(', ');
    const stored = metrics
      .map(
        (k) =>
          `${k}_min, ${k}_max, coalesce(${k}_n, 0) as ${k}_n, round(${k}_sum::numeric, 2)::float8 as ${k}_sum`,
      )
      .join(', ');
    const fromRaw = await t.roost.database.query(
      `select date_trunc('hour', ts) as bucket, count(*)::int as readings, ${aggregates}
       from telemetry where house_id = $1 group by 1 order by 1`,
      [p.houseId],
    );
    const rolled = await t.roost.database.query(
      `select bucket, readings, ${stored} from telemetry_hourly where house_id = $1 order by bucket`,
      [p.houseId],
    );
    expect(fromRaw).toHaveLength(3);
    expect(rolled).toEqual(fromRaw);
    expect(fromRaw.reduce((n, r) => n + (r.readings as number), 0)).toBe(120);
  });

  it('stores several batches at once and announces their readings in the order they came', async () => {
    const p = await t.gatewayOf('Gaocheng Broiler Farm', 'House 3', 'token-g3');
    const start = Date.now() - 3_600_000;
    const submit = (ts: number, seq: number) =>
      t.roost.ingest.submitTelemetry(
        p.networkId,
        Buffer.from(JSON.stringify({ ts, seq, metrics: { temperature: 20 + (seq % 7) } })),
      );
    // The house's first reading since the start waits for its look-up (and may overtake or be
    // overtaken by the next ones); from then on readings keep the order they came in.
    await submit(start - 500, 0);
    const heard: number[] = [];
    const stop = t.roost.events.on('batchStored', ({ readings }) => {
      for (const r of readings) if (r.houseId === p.houseId) heard.push(r.ts.getTime());
    });
    // 5,000 readings arrive together: more than two batches, written while the next fill.
    const sent = Array.from({ length: 5_000 }, (_, i) => start + i * 500);
    const results = await Promise.all(sent.map((ts, i) => submit(ts, i + 1)));
    await t.roost.events.idle();
    stop();
    expect(results.every((r) => r.status === 'stored')).toBe(true);
    expect(heard).toEqual(sent);
    expect(await rawCount(p.houseId)).toBe(5_001);
    const [state] = await t.roost.database.query<{ last_ts: Date }>(
      'select last_ts from house_state where house_id = $1',
      [p.houseId],
    );
    expect(new Date(state!.last_ts).getTime()).toBe(sent.at(-1));
  });

  it('takes readings over HTTP with the device token, through the same path', async () => {
    const p = await t.gatewayOf('Tieling Broiler Farm', 'House 2', 'token-t2');
    const post = (token: string, body: unknown, locale = 'en') =>
      fetch(`${t.url}/api/ingest/${p.networkId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', locale },
        body: JSON.stringify(body),
      });
    const ts = Date.now() - 10_000;
    const stored = await post('token-t2', { ts, metrics: { temperature: 21.5 } });
    expect(stored.status).toBe(200);
    expect(((await stored.json()) as { data: { status: string } }).data.status).toBe('stored');
    expect(
      (
        (await (await post('token-t2', { ts, metrics: { temperature: 21.5 } })).json()) as {
          data: { status: string };
        }
      ).data.status,
    ).toBe('duplicate');
    const bad = await post('token-t2', { ts, metrics: { nh3: 9000 } }, 'zh');
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { msg: string }).msg).toBe(
      '数据被拒绝（outOfRange）：nh3=9000 (allowed 0…500)',
    );
    expect((await post('wrong', { ts, metrics: { temperature: 21.5 } })).status).toBe(401);
    expect(await rawCount(p.houseId)).toBe(1);
  });

  it('refuses a trend of a house outside the scope, and one with too many points', async () => {
    const p = await t.gatewayOf('Qingyuan Layer Farm', 'House 1', 'token-q1');
    const farmToken = await t.signIn('farm');
    const now = Date.now();
    const outside = await fetch(
      `${t.url}/api/trend/house?houseId=${p.houseId}&metrics=temperature&from=${now - 86_400_000}&to=${now}&granularity=hour`,
      {
        headers: { authorization: `Bearer ${farmToken}` },
      },
    );
    expect(outside.status).toBe(404);
    const tooMany = await fetch(
      `${t.url}/api/trend/house?houseId=${gw.houseId}&metrics=temperature&from=${now - 90 * 86_400_000}&to=${now}&granularity=minute`,
      {
        headers: { authorization: `Bearer ${farmToken}`, locale: 'en' },
      },
    );
    expect(tooMany.status).toBe(422);
    expect(((await tooMany.json()) as { msg: string }).msg).toMatch(
      /^That would be 129600 points per house \(at most 5000\)/,
    );
  });
});
