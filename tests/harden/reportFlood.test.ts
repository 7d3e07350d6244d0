import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARAMS } from '../../src/contract/envcontrol';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';
import { FLOOD_REPORTS, p99, runReportFlood } from './reportFloodRun';

const CATALOGUE = PARAMS.map((s) => s.key);
const METRICS_TOKEN = 'metrics-token-report-flood';
const ROUNDS = 3;
/**
 * The honest gateways' acknowledgements may not wait on the flood. Before, each hostile report
 * held them for 7–9 s on the embedded database, and 20 of them past the 120 s timeout. The
 * figure itself (the p99 moved by under 100 ms) is the `reportFlood` bench's, measured alone:
 * here other test files share the two cores, and under a loaded CI run the p99 on PostgreSQL
 * moved by 1.2 s with nothing held; a hold would move it by several seconds.
 */
const HELD_MS = 5_000;

describe.each(testDatabaseTargets())('config/report flood on $name', (target) => {
  let r: TestRoost;
  beforeAll(async () => {
    r = await startTestRoost(target, { metricsToken: METRICS_TOKEN });
  }, 180_000);
  afterAll(() => r?.stop());

  const rejected = () => ({ ...r.roost.ingest.counters.rejected });
  const hostile = () => r.roost.boot.demoGateways![8]!;

  it("20 hostile 200 KB reports at once leave the others' acknowledgements alone and store nothing", async () => {
    const before = rejected();
    const { baseline, attack } = await runReportFlood(r, ROUNDS);
    const [calm, underAttack] = [p99(baseline), p99(attack)];
    console.log(
      `report flood on ${target.name}: PUBACK p99 baseline ${calm.toFixed(1)} ms ` +
        `(${baseline.length} readings), under attack ${underAttack.toFixed(1)} ms (${attack.length})`,
    );
    expect(underAttack - calm).toBeLessThan(HELD_MS);
    // Each refused, counted and nothing of them stored.
    expect(rejected().tooLarge - before.tooLarge).toBe(FLOOD_REPORTS * ROUNDS);
    const [unknown] = await r.roost.database.query<{ changes: number; params: number }>(
      `select (select count(*)::int from param_changes where key <> all($1::text[])) as changes,
              (select count(*)::int from gateway_params p, jsonb_object_keys(p.params) k
                 where k <> all($1::text[])) as params`,
      [CATALOGUE],
    );
    expect(unknown).toEqual({ changes: 0, params: 0 });
  }, 180_000);

  it('a small report with a key outside the catalogue is refused whole and counted', async () => {
    const gateway = hostile();
    const client = await r.gateway(gateway.networkId, gateway.token);
    const before = rejected();
    const [first] = CATALOGUE;
    const params = { [first!]: 30, made_up_key: 1 };
    await client.publishAsync(
      `roost/v1/${gateway.networkId}/config/report`,
      JSON.stringify({ params, source: 'local' }),
      { qos: 1 },
    );
    await waitFor(() => (rejected().unknownParam > before.unknownParam ? true : undefined));
    const rows = await r.roost.database.query<{ n: number }>(
      `select count(*)::int as n from param_changes where gateway_id = (
         select id from gateways where network_id = $1)`,
      [gateway.networkId],
    );
    expect(Number(rows[0]!.n)).toBe(0);
    // The refusal shows in /metrics' refused-message counters.
    const metrics = await (
      await fetch(`${r.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })
    ).text();
    expect(metrics).toMatch(/roost_readings_refused_total\{reason="unknownParam"\} [1-9]/);
  });
});
