import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { parseExposition, valueOf, type Exposition } from './promText';

const TOKEN = 'metrics-token-0123456789';
const READINGS = 25;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000) {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(200);
  }
}

describe.each(testDatabaseTargets())('/metrics on $name', (target) => {
  let t: TestRoost;
  let gw: { networkId: string; houseId: number; gatewayId: number };
  let client: MqttClient;

  const scrape = async (authorization = `Bearer ${TOKEN}`) => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization } });
    return { res, text: await res.text() };
  };
  const exposition = async (): Promise<Exposition> => {
    const { res, text } = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(text);
  };

  beforeAll(async () => {
    t = await startTestRoost(target, { metricsToken: TOKEN });
    gw = await t.gatewayOf('Weifang Broiler Farm', 'House 4', 'token-metrics');
    client = await t.gateway(gw.networkId, 'token-metrics');
  });
  afterAll(() => t?.stop());

  it('counts readings taken through the broker, refusals by reason, batches and connections', async () => {
    const base = Date.now() - 600_000;
    for (let i = 0; i < READINGS; i += 1) {
      await client.publishAsync(
        `roost/v1/${gw.networkId}/telemetry`,
        JSON.stringify({ ts: base + i * 1000, seq: i, metrics: { temperature: 20 + i / 10 } }),
        { qos: 1 },
      );
    }
    // A resend, a reading with a metric the catalogue does not know, and one that is not JSON.
    const topic = `roost/v1/${gw.networkId}/telemetry`;
    await client.publishAsync(
      topic,
      JSON.stringify({ ts: base, seq: 0, metrics: { temperature: 20 } }),
      {
        qos: 1,
      },
    );
    await client.publishAsync(topic, JSON.stringify({ ts: base, metrics: { unicorns: 3 } }), {
      qos: 1,
    });
    await client.publishAsync(topic, '{"ts":', { qos: 1 });
    const admin = await t.signIn('admin');
    const socket = await t.socket(admin);

    const m = await exposition();
    expect(m.types.get('roost_readings_accepted_total')).toBe('counter');
    expect(valueOf(m, 'roost_readings_accepted_total')).toBe(READINGS + 1);
    expect(valueOf(m, 'roost_readings_stored_total')).toBe(READINGS);
    expect(valueOf(m, 'roost_readings_duplicate_total')).toBe(1);
    expect(valueOf(m, 'roost_readings_refused_total', { reason: 'unknownMetric' })).toBe(1);
    expect(valueOf(m, 'roost_readings_refused_total', { reason: 'malformed' })).toBe(1);
    expect(valueOf(m, 'roost_readings_refused_total', { reason: 'badToken' })).toBe(0);
    // Each reading waited for its acknowledgement: one reading per batch, every batch counted.
    expect(m.types.get('roost_ingest_batch_size')).toBe('histogram');
    expect(valueOf(m, 'roost_ingest_batch_size_count')).toBe(READINGS + 1);
    expect(valueOf(m, 'roost_ingest_batch_size_sum')).toBe(READINGS + 1);
    expect(valueOf(m, 'roost_ingest_batch_size_bucket', { le: '1' })).toBe(READINGS + 1);
    expect(valueOf(m, 'roost_ingest_write_seconds_count')).toBe(READINGS + 1);
    expect(valueOf(m, 'roost_ingest_write_seconds_sum')).toBeGreaterThan(0);
    expect(valueOf(m, 'roost_ingest_write_seconds_bucket', { le: '+Inf' })).toBe(READINGS + 1);
    expect(valueOf(m, 'roost_ingest_batches_failed_total')).toBe(0);
    expect(valueOf(m, 'roost_ingest_queue_depth')).toBe(0);
    expect(valueOf(m, 'roost_mqtt_clients')).toBe(1);
    expect(valueOf(m, 'roost_mqtt_up')).toBe(1);
    expect(valueOf(m, 'roost_live_sockets')).toBe(1);
    // The process's own series come with them.
    expect(valueOf(m, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(m, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    socket.disconnect();
    client.end(true);
    const after = await until('the socket and the gateway gone', async () => {
      const next = await exposition();
      return valueOf(next, 'roost_live_sockets') === 0 && valueOf(next, 'roost_mqtt_clients') === 0
        ? next
        : undefined;
    });
    expect(valueOf(after, 'roost_readings_stored_total')).toBe(READINGS);
  });

  it('reads open alarms from the database and counts notifications by what became of them', async () => {
    const before = await exposition();
    expect(valueOf(before, 'roost_alarms_open', { state: 'active' })).toBe(0);
    expect(
      valueOf(before, 'roost_alarm_notifications_total', { channel: 'sms', result: 'sent' }),
    ).toBe(0);
    const [farm] = await t.roost.database.query<{ id: number }>(
      `select farm_id as id from houses where id = $1`,
      [gw.houseId],
    );
    // The farm's duty phone hears network alarms by text message at once.
    await t.roost.database.query(
      `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type,
         repeat_minutes, closable, alarm_type, delay_minutes, status, notice_types, description)
       values ($1, null, '13800000007', '00:00', '00:00', 'daily', 0, true, 'message', 0, 'open',
         '["network"]', 'night duty')`,
      [farm!.id],
    );
    const gateway = await t.gateway(gw.networkId, 'token-metrics');
    await gateway.publishAsync(`roost/v1/${gw.networkId}/status`, '{"online":false}', { qos: 1 });

    // No SMS provider and no webhook here: the text reached nobody, and is counted so, not "sent".
    const m = await until(
      'the offline alarm and its undelivered text message counted',
      async () => {
        const next = await exposition();
        return valueOf(next, 'roost_alarm_notifications_total', {
          channel: 'sms',
          result: 'no_provider',
        }) === 1
          ? next
          : undefined;
      },
    );
    expect(valueOf(m, 'roost_alarm_notifications_total', { channel: 'sms', result: 'sent' })).toBe(
      0,
    );
    const [attempt] = await t.roost.database.query<{ ok: boolean; detail: string }>(
      `select ok, detail from alarm_notify_attempts order by id desc limit 1`,
    );
    expect(attempt).toEqual({ ok: false, detail: 'not delivered: no provider' });
    const [open] = await t.roost.database.query<{ n: number }>(
      `select count(*)::int as n from alarms where state = 'active'`,
    );
    expect(open!.n).toBeGreaterThan(0);
    expect(valueOf(m, 'roost_alarms_open', { state: 'active' })).toBe(open!.n);
    expect(valueOf(m, 'roost_alarms_open', { state: 'acknowledged' })).toBe(0);
    expect(
      valueOf(m, 'roost_alarm_notifications_total', { channel: 'sms', result: 'failed' }),
    ).toBe(0);
  });

  it('answers 401 without the token, with a wrong one and with a user session', async () => {
    for (const authorization of ['', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN]) {
      const { res, text } = await scrape(authorization);
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(text).not.toContain('roost_readings');
    }
    const session = await t.signIn('admin');
    expect((await scrape(`Bearer ${session}`)).res.status).toBe(401);
  });
});

describe('/metrics without ROOST_METRICS_TOKEN', () => {
  it('does not exist', async () => {
    const [pglite] = testDatabaseTargets();
    const t = await startTestRoost(pglite!);
    try {
      for (const authorization of ['', 'Bearer anything-at-all-here']) {
        const res = await fetch(`${t.url}/metrics`, { headers: { authorization } });
        expect(res.status).toBe(404);
        expect(await res.text()).not.toContain('roost_');
      }
    } finally {
      await t.stop();
    }
  });
});
