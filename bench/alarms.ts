import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import mqtt from 'mqtt';
import { io } from 'socket.io-client';
import { hashToken } from '../server/auth/tokens';
import { readConfig } from '../server/config';
import { DEMO_PASSWORD } from '../server/demo/demoFarms';
import {
  emptyRuleState,
  evaluateReading,
  type HouseRules,
  type OpenAlarm,
} from '../server/alarms/rules';
import { startRoost } from '../server/roost';

export interface AlarmFigures {
  /** The pure rules per reading (16 metrics, 4 devices). */
  evaluationUsPerReading: number;
  /** MQTT publish of a reading over a limit → the socket's 'alarm:count' (what the badge shows). */
  publishToCountP50Ms: number;
  publishToCountP99Ms: number;
}

const EVALUATIONS = 200_000;
const LATENCY_SAMPLES = 40;

function benchRules(): number {
  const rules: HouseRules = {
    houseId: 1,
    targetTemperature: 25,
    breedHumidity: 60,
    breedCo2: 3000,
    limits: {},
  };
  const state = emptyRuleState();
  const open = new Map<string, OpenAlarm>();
  const metrics: Record<string, number> = {
    temperature: 25,
    humidity: 60,
    co2: 1500,
    nh3: 8,
    pressure: -20,
  };
  for (let i = 1; i <= 8; i += 1) metrics[`temperature_${i}`] = 25;
  const devices = {
    fan_1: { state: 1 },
    fan_2: { state: 0 },
    inlet_1: { state: 1 },
    heater_1: { state: 0 },
  };
  const start = performance.now();
  for (let i = 0; i < EVALUATIONS; i += 1) {
    metrics.temperature = 25 + (i % 10) / 10;
    evaluateReading(rules, { ts: i * 30_000, mode: 1, metrics, faults: {}, devices }, state, open);
  }
  return ((performance.now() - start) * 1000) / EVALUATIONS;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;

export async function benchAlarms(): Promise<AlarmFigures> {
  const evaluationUsPerReading = benchRules();
  const config = readConfig({
    PORT: '0',
    DATA_DIR: 'memory://',
    ROOST_DEMO: '1',
    ROOST_DEMO_HISTORY: 'off',
    ROOST_CAPTCHA: 'off',
    LOG_LEVEL: 'silent',
  });
  const roost = await startRoost({ ...config, mqttPort: 0, runSimulator: false });
  try {
    const db = roost.database;
    const [h] = await db.query<{ house_id: number; network_id: string }>(
      `select h.id as house_id, g.network_id from houses h join gateways g on g.house_id = h.id order by h.id limit 1`,
    );
    const house = h!;
    await db.query(
      `insert into alarm_limits (house_id, limits) values ($1, '{"minDurationSeconds":0,"clearHoldSeconds":0}')`,
      [house.house_id],
    );
    await db.query('update gateways set token_hash = $1 where network_id = $2', [
      hashToken('bench'),
      house.network_id,
    ]);
    roost.ingest.directory.forget(house.network_id);
    const login = await fetch(`${roost.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const socket = io(roost.url, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
    });
    await new Promise<void>((r) => socket.once('connect', () => r()));
    const gw = await mqtt.connectAsync(`mqtt://127.0.0.1:${roost.mqttPort}`, {
      username: house.network_id,
      password: 'bench',
      reconnectPeriod: 0,
    });
    const latencies: number[] = [];
    let ts = Date.now() - LATENCY_SAMPLES * 2_000;
    for (let i = 0; i < LATENCY_SAMPLES; i += 1) {
      // Over the limit (count + 1), then back (count − 1): every publish changes the badge.
      const co2 = i % 2 === 0 ? 15_000 : 1_000;
      const counted = new Promise<void>((r) => socket.once('alarm:count', () => r()));
      const sent = performance.now();
      ts += 1_000;
      await gw.publishAsync(
        `roost/v1/${house.network_id}/telemetry`,
        JSON.stringify({ ts, metrics: { co2 } }),
        { qos: 1 },
      );
      await counted;
      latencies.push(performance.now() - sent);
    }
    socket.disconnect();
    await gw.endAsync();
    return {
      evaluationUsPerReading: Math.round(evaluationUsPerReading * 100) / 100,
      publishToCountP50Ms: Math.round(pct(latencies, 50)),
      publishToCountP99Ms: Math.round(pct(latencies, 99)),
    };
  } finally {
    await roost.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchAlarms().then(
    (f) => console.log(JSON.stringify(f, null, 2)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
