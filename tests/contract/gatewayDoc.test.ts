import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  GATEWAY_CONTRACT,
  GATEWAY_PUBLISHES,
  GATEWAY_SUBSCRIBES,
  GATEWAY_TOPICS,
  plainTelemetry,
  telemetrySchema,
} from '../../src/contract/gateway';
import { GATEWAY_DOC_PATH, gatewayDocument } from '../../scripts/gateway-doc';
import { fieldRows } from '../../scripts/gatewayDocSchema';

describe('docs/gateway-protocol.md', () => {
  it('is what the gateway contract generates now', async () => {
    const committed = readFileSync(GATEWAY_DOC_PATH, 'utf8');
    // The page a firmware team implements from must not drift from what the server checks.
    expect(committed === (await gatewayDocument()), 'stale: run npm run gateway-doc').toBe(true);
  });

  it('describes every field of every payload, with the limits the schema checks', async () => {
    const page = await gatewayDocument();
    for (const topic of GATEWAY_CONTRACT) {
      expect(page).toContain(`### ${topic.kind}\n`);
      for (const row of fieldRows(topic.schema)) expect(page).toContain(`\`${row.field}\``);
    }
    const log = GATEWAY_CONTRACT.find((t) => t.kind === 'log')!;
    expect(fieldRows(log.schema).find((r) => r.field === 'lines')).toMatchObject({
      type: 'array of string',
      required: true,
      limits: 'at most 1000 items, each at most 500 characters',
    });
  });
});

describe('the gateway contract', () => {
  it('covers every topic once, each in the direction the brokers enforce', () => {
    expect(GATEWAY_CONTRACT.map((t) => t.kind)).toEqual([...GATEWAY_TOPICS]);
    for (const topic of GATEWAY_CONTRACT) {
      const publishes = GATEWAY_PUBLISHES.includes(topic.kind);
      expect(publishes !== GATEWAY_SUBSCRIBES.includes(topic.kind), topic.kind).toBe(true);
      expect(topic.direction).toBe(publishes ? 'gateway → server' : 'server → gateway');
      // What a gateway sends is capped; what the server sends is not refused by anyone.
      expect(topic.maxBytes !== null, topic.kind).toBe(publishes);
    }
  });

  it("gives an example of each topic that its schema accepts, within the topic's cap", () => {
    for (const topic of GATEWAY_CONTRACT) {
      const parsed = topic.schema.safeParse(topic.example);
      expect(parsed.success, `${topic.kind}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      if (topic.maxBytes !== null)
        expect(Buffer.byteLength(JSON.stringify(topic.example))).toBeLessThanOrEqual(
          topic.maxBytes,
        );
    }
  });

  it('reads the telemetry example the same with the fast decoder as with the schema', () => {
    const example = GATEWAY_CONTRACT.find((t) => t.kind === 'telemetry')!.example;
    // The server parses the bytes itself and hands the object to the fast path.
    const json: unknown = JSON.parse(JSON.stringify(example));
    expect(plainTelemetry(json)).toEqual(telemetrySchema.parse(example));
  });
});
