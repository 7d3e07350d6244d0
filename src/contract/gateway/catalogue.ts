import type { z } from 'zod';
import { configAckSchema, configReportSchema, configSetSchema } from './config';
import { DEVICE_LOG_LINES, deviceLogReplySchema, logGetSchema } from './deviceLog';
import { gatewayEventSchema, gatewayStatusSchema } from './status';
import { telemetrySchema } from './telemetry';
import {
  GATEWAY_PUBLISHES,
  GATEWAY_SUBSCRIBES,
  GATEWAY_TOPICS,
  MAX_PAYLOAD_BYTES,
  type GatewayTopic,
} from './topics';
import { upgradeOrderSchema, upgradeProgressSchema } from './upgrade';

/** One topic of the contract, as a firmware team implements it (docs/gateway-protocol.md). */
export interface TopicContract {
  kind: GatewayTopic;
  direction: 'gateway → server' | 'server → gateway';
  qos: 0 | 1;
  /** Whether the message is published retained. */
  retain: boolean;
  /** Bytes a gateway's message may carry (MAX_PAYLOAD_BYTES); null for the server's commands. */
  maxBytes: number | null;
  /** The payload, JSON in UTF-8. */
  schema: z.ZodType;
  /** A payload as it is really sent: the document shows it and a test parses it. */
  example: unknown;
  /** What the message is for and when it is sent, for the document. */
  summary: string;
  /** The topic that answers it, or that it answers. */
  pairedWith?: GatewayTopic;
}

type TopicFacts = Omit<TopicContract, 'kind' | 'direction' | 'maxBytes'>;

const EXAMPLE_TS = 1_767_225_600_000;
const COMMAND_ID = '5f0c2a4e-8b1d-4c3a-9e7f-2d6b1a0c9e11';

const FACTS: Record<GatewayTopic, TopicFacts> = {
  telemetry: {
    qos: 1,
    retain: false,
    schema: telemetrySchema,
    summary:
      'One reading of the house: every metric the controller measures, and its devices’ states. Sent at the gateway’s reading interval (60 s by default). Kept in the gateway until the PUBACK: the server acknowledges only once the reading is stored, so a gateway sends again whatever is not acknowledged, in order, after a reconnect.',
    example: {
      ts: EXAMPLE_TS,
      seq: 1024,
      metrics: { temperature: 24.6, humidity: 61, co2: 1450, temperature_1: -999 },
      mode: 2,
      devices: { fan_1: { state: 1 }, inlet_1: { state: 1, opening: 35 } },
    },
  },
  status: {
    qos: 1,
    retain: true,
    schema: gatewayStatusSchema,
    summary:
      'Whether the gateway is online. Published retained with `online: true` once connected and subscribed to its commands, set as the connection’s will with `online: false` (the broker publishes it when the connection is lost), and published with `online: false` before a deliberate disconnect.',
    example: { online: true, network: 'wired', version: '2.4.1' },
  },
  event: {
    qos: 1,
    retain: false,
    schema: gatewayEventSchema,
    summary:
      'An alarm the controller raises itself, or a digital input changing: once when it starts (`active: true`) and once when it ends.',
    example: {
      ts: EXAMPLE_TS,
      kind: 'alarm',
      code: 'fan_failure',
      active: true,
      text: 'Fans 1–2 failed',
    },
  },
  'config/set': {
    qos: 1,
    retain: false,
    schema: configSetSchema,
    pairedWith: 'config/ack',
    summary:
      'Parameters to apply. Apply all or none, read the values back from the controller, and answer on config/ack with the same id. The server sends a command again after a reconnect until it is answered or expires: a command seen before gets the same answer again, and is not applied twice.',
    example: {
      id: COMMAND_ID,
      params: { heat_offset: 1.5, alarm_temp_high: 34 },
      expiresAt: '2026-01-02T00:00:00.000Z',
    },
  },
  'config/ack': {
    qos: 1,
    retain: false,
    schema: configAckSchema,
    pairedWith: 'config/set',
    summary:
      'The answer to a config/set: applied with the values read back, or rejected with a reason. A parameter outside the catalogue refuses the whole message.',
    example: {
      id: COMMAND_ID,
      status: 'applied',
      values: { heat_offset: 1.5, alarm_temp_high: 34 },
    },
  },
  'config/report': {
    qos: 1,
    retain: false,
    schema: configReportSchema,
    summary:
      'The controller’s whole parameter set: after connecting (`source: "device"`) and after every change made at the controller itself (`source: "local"`). A parameter outside the catalogue refuses the whole message.',
    example: {
      ts: EXAMPLE_TS,
      version: '2.4.1',
      params: { heat_offset: 1, cool_offset: 2, alarm_temp_high: 35, alarm_temp_low: 15 },
      source: 'device',
    },
  },
  upgrade: {
    qos: 1,
    retain: false,
    schema: upgradeOrderSchema,
    pairedWith: 'upgrade/progress',
    summary:
      'A firmware upgrade: download the file, check its size and SHA-256, install it, restart, and report each step on upgrade/progress. An order seen before gets its last answer again; one that arrives while another runs is answered `failed` (busy).',
    example: {
      id: COMMAND_ID,
      version: '2.5.0',
      url: 'https://roost.example.com/api/upgrade/download/GW-0001/k3F9xQ2mZr8TnW4vLp7Ya1Bc',
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      size: 1048576,
    },
  },
  'upgrade/progress': {
    qos: 1,
    retain: false,
    schema: upgradeProgressSchema,
    pairedWith: 'upgrade',
    summary:
      'How an upgrade goes: `downloading` (with percent), `installing`, `restarting`, then `done` with the version it came back on (sent after the restart), or `failed` with a reason.',
    example: { id: COMMAND_ID, status: 'downloading', percent: 50 },
  },
  'log/get': {
    qos: 1,
    retain: false,
    schema: logGetSchema,
    pairedWith: 'log',
    summary:
      'The server asks for the gateway’s latest log lines (someone pressed “load device log”); answer on `log` with the same id within a few seconds.',
    example: { id: COMMAND_ID, lines: DEVICE_LOG_LINES },
  },
  log: {
    qos: 1,
    retain: false,
    schema: deviceLogReplySchema,
    pairedWith: 'log/get',
    summary: 'The answer to a log/get: the latest lines, oldest first.',
    example: {
      id: COMMAND_ID,
      lines: ['2026-01-01T00:00:00.000Z network up, firmware 2.4.1'],
    },
  },
};

/** Every topic of the contract, in the order of GATEWAY_TOPICS. */
export const GATEWAY_CONTRACT: readonly TopicContract[] = GATEWAY_TOPICS.map((kind) => {
  const publishes = GATEWAY_PUBLISHES.includes(kind);
  if (!publishes && !GATEWAY_SUBSCRIBES.includes(kind))
    throw new Error(`gateway topic ${kind} has no direction`);
  return {
    kind,
    direction: publishes ? 'gateway → server' : 'server → gateway',
    maxBytes: MAX_PAYLOAD_BYTES[kind] ?? null,
    ...FACTS[kind],
  };
});
