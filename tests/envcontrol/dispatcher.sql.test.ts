import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { gatewayCommands } from '../../server/db/envcontrolSchema';
import { farms, gateways, houses, organizations } from '../../server/db/schema';
import { finishAcknowledged } from '../../server/envcontrol/dispatcher.sql';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';

describe.each(testDatabaseTargets())('acknowledgement batch statement on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;
  let houseId: number;
  let gatewayIds: [number, number];

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase(target));
    const { db } = database;
    const [org] = await db
      .insert(organizations)
      .values({ name: 'Org', code: 'org' })
      .returning({ id: organizations.id });
    const [farm] = await db
      .insert(farms)
      .values({ orgId: org!.id, level: 'farm', name: 'Farm' })
      .returning({ id: farms.id });
    const made = await db
      .insert(houses)
      .values([
        { farmId: farm!.id, name: 'H1' },
        { farmId: farm!.id, name: 'H2' },
      ])
      .returning({ id: houses.id });
    houseId = made[0]!.id;
    const gws = await db
      .insert(gateways)
      .values(
        made.map((h, i) => ({
          houseId: h.id,
          networkId: `ack-${i}`,
          typeKey: 25,
          tokenHash: `hash-${i}`,
        })),
      )
      .returning({ id: gateways.id });
    gatewayIds = [gws[0]!.id, gws[1]!.id];
    const command = (id: string, gateway: number, house: number, kind: string, state: string) => ({
      id,
      gatewayId: gateway,
      houseId: house,
      kind,
      state,
      params: { heat_offset: 1 },
      requestedByName: 'Ann',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    await db
      .insert(gatewayCommands)
      .values([
        command('c-applied', gatewayIds[0], houseId, 'config', 'sent'),
        command('c-rejected', gatewayIds[0], houseId, 'config', 'queued'),
        command('c-final', gatewayIds[0], houseId, 'config', 'expired'),
        command('c-log', gatewayIds[0], houseId, 'log', 'sent'),
        command('c-other', gatewayIds[1], made[1]!.id, 'config', 'sent'),
      ]);
  });
  afterAll(() => close?.());

  it('finishes each gateway’s own open configuration commands once, with typed rows', async () => {
    const acks = [
      {
        commandId: 'c-applied',
        gatewayId: gatewayIds[0],
        status: 'applied' as const,
        values: { heat_offset: 1.5 },
        reason: null,
      },
      {
        commandId: 'c-rejected',
        gatewayId: gatewayIds[0],
        status: 'rejected' as const,
        values: null,
        reason: 'busy',
      },
      // Final already, not a configuration command, another gateway's, no such id: untouched.
      {
        commandId: 'c-final',
        gatewayId: gatewayIds[0],
        status: 'applied' as const,
        values: null,
        reason: null,
      },
      {
        commandId: 'c-log',
        gatewayId: gatewayIds[0],
        status: 'applied' as const,
        values: null,
        reason: null,
      },
      {
        commandId: 'c-other',
        gatewayId: gatewayIds[0],
        status: 'applied' as const,
        values: null,
        reason: null,
      },
      {
        commandId: 'c-none',
        gatewayId: gatewayIds[0],
        status: 'applied' as const,
        values: null,
        reason: null,
      },
    ];
    const rows = await finishAcknowledged(database.query, acks);
    expect(rows.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      {
        id: 'c-applied',
        houseId,
        gatewayId: gatewayIds[0],
        requestedByName: 'Ann',
        state: 'applied',
        readBack: { heat_offset: 1.5 },
      },
      {
        id: 'c-rejected',
        houseId,
        gatewayId: gatewayIds[0],
        requestedByName: 'Ann',
        state: 'rejected',
        readBack: null,
      },
    ]);
    const [rejected] = await database.db
      .select({ reason: gatewayCommands.reason, finishedAt: gatewayCommands.finishedAt })
      .from(gatewayCommands)
      .where(eq(gatewayCommands.id, 'c-rejected'));
    expect(rejected!.reason).toBe('busy');
    expect(rejected!.finishedAt).toBeInstanceOf(Date);
    const [other] = await database.db
      .select({ state: gatewayCommands.state })
      .from(gatewayCommands)
      .where(eq(gatewayCommands.id, 'c-other'));
    expect(other!.state).toBe('sent');
    // A repeat of the same answers finds nothing open any more.
    expect(await finishAcknowledged(database.query, acks)).toEqual([]);
    expect(await finishAcknowledged(database.query, [])).toEqual([]);
  });
});
