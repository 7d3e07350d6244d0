import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDownload, upgradeOrder } from '../../server/upgrade/commands';
import { deleteOldCommands } from '../../server/envcontrol/retention';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

const RETENTION = { commandDays: 90, paramChangeDays: 400 };
const SHA = 'c'.repeat(64);

describe.each(testDatabaseTargets())('command retention on $name', (target) => {
  let t: TestApp;
  let gateway: { id: number; house_id: number; network_id: string };

  beforeAll(async () => {
    t = await createTestApp(target);
    const [first] = await t.database.query<typeof gateway>(
      'select id, house_id, network_id from gateways where house_id is not null order by id limit 1',
    );
    gateway = first!;
    await t.database.query(
      `insert into upgrade_files (sha256, version, file_name, size, type_keys)
       values ($1, '9.0.0', 'FW', 1, '{25}')`,
      [SHA],
    );
  });
  afterAll(() => t?.close());

  /** A command of `state`, created `ageDays` ago and (when final) finished then. */
  const command = async (id: string, state: string, ageDays: number, kind = 'config') => {
    await t.database.query(
      `insert into gateway_commands (id, gateway_id, house_id, kind, state, params,
         requested_by_name, created_at, finished_at, expires_at)
       values ($1, $2, $3, $4, $5, '{}'::jsonb, 'test', now() - make_interval(days => $6),
         case when $5 in ('queued', 'sent') then null else now() - make_interval(days => $6) end,
         now() + interval '1 day')`,
      [id, gateway.id, gateway.house_id, kind, state, ageDays],
    );
  };
  const ids = async (sql: string) =>
    (await t.database.query<{ id: string }>(sql)).map((r) => String(r.id)).sort();

  it('deletes finished commands past their days, keeps younger and open ones', async () => {
    await command('old-applied', 'applied', 91);
    await command('old-rejected', 'rejected', 200);
    await command('old-expired', 'expired', 100);
    await command('old-superseded', 'superseded', 95);
    await command('young-applied', 'applied', 89);
    // Open however old: a gateway may still answer it.
    await command('old-queued', 'queued', 300);
    await command('old-sent', 'sent', 300);
    const result = await deleteOldCommands(t.database, RETENTION);
    expect(result.commands).toBe(4);
    expect(
      await ids(`select id from gateway_commands where id like 'old-%' or id like 'young-%'`),
    ).toEqual(['old-queued', 'old-sent', 'young-applied']);
  });

  it('keeps parameter changes for their own, longer days', async () => {
    for (const days of [401, 399, 120]) {
      await t.database.query(
        `insert into param_changes (house_id, gateway_id, at, source, operator_name, key, new_value)
         values ($1, $2, now() - make_interval(days => $3), 'computer', 'test', $4, 1)`,
        [gateway.house_id, gateway.id, days, `k${days}`],
      );
    }
    const result = await deleteOldCommands(t.database, RETENTION);
    expect(result.paramChanges).toBe(1);
    expect(
      await ids(`select key as id from param_changes where key in ('k401', 'k399', 'k120')`),
    ).toEqual(['k120', 'k399']);
  });

  it('an upgrade left unanswered for many resends holds a bounded number of links; spent ones go after a day', async () => {
    await command('upgrade-unanswered', 'sent', 0, 'upgrade');
    await t.database.query(
      `insert into gateway_upgrades (command_id, sha256, version, from_version, file_name)
       values ('upgrade-unanswered', $1, '9.0.0', '8.0.0', 'FW')`,
      [SHA],
    );
    const target = {
      id: 'upgrade-unanswered',
      gatewayId: gateway.id,
      networkId: gateway.network_id,
    };
    const tokens = async () =>
      (
        await t.database.query<{ n: number }>(
          `select count(*)::int as n from upgrade_tokens where command_id = 'upgrade-unanswered'`,
        )
      )[0]!.n;
    // What the dispatcher does every 15 s while the gateway stays silent: 40 resends, 10 minutes.
    const links: string[] = [];
    for (let resend = 0; resend < 40; resend += 1) {
      const order = await upgradeOrder(t.database.db, target, 'http://roost');
      links.push(order!.url.split('/').at(-1)!);
    }
    expect(await tokens()).toBeLessThanOrEqual(2);
    // The link sent just before the last still works: a gateway may be fetching it now.
    const claim = await claimDownload(t.database.db, gateway.id, links.at(-2)!);
    expect(claim.ok).toBe(true);

    // Spent and expired links stay a day (a retry hears why), then go; a live one stays.
    await t.database.query(
      `update upgrade_tokens set used_at = now() - interval '25 hours'
       where command_id = 'upgrade-unanswered' and used_at is not null`,
    );
    const result = await deleteOldCommands(t.database, RETENTION);
    expect(result.tokens).toBe(1);
    expect(await tokens()).toBe(1);
  });
});
