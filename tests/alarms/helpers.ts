import { pino } from 'pino';
import { AlarmEngine } from '../../server/alarms/engine';
import type { Database } from '../../server/db/client';
import { ServerEvents } from '../../server/events';
import { GatewayDirectory } from '../../server/ingest/gatewayDirectory';
import { IngestPipeline } from '../../server/ingest/pipeline';
import { farms, houses, organizations } from '../../server/db/schema';

/** A clock the test moves by hand. */
export function testClock(start: Date) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    set: (d: Date) => (now = d.getTime()),
    advance: (ms: number) => (now += ms),
  };
}

/** The real ingest path on a test database, with the alarm engine listening on a test clock. */
export function alarmPipeline(database: Database, now: () => Date) {
  const log = pino(
    { level: process.env.ALARM_TEST_LOG ?? 'silent' },
    { write: (line: string) => console.log(line) },
  );
  const events = new ServerEvents(log);
  const ingest = new IngestPipeline(database, new GatewayDirectory(database.db), events, log);
  const engine = new AlarmEngine(database, events, ingest.directory, {
    timeZone: 'Asia/Shanghai',
    log,
    now,
  });
  engine.listen();
  return { ingest, engine };
}

export async function demoHouse(database: Database, farm: string, house: string) {
  const [row] = await database.query<{
    house_id: number;
    farm_id: number;
    network_id: string;
    gateway_id: number;
  }>(
    `select h.id as house_id, f.id as farm_id, g.network_id, g.id as gateway_id
     from houses h join farms f on f.id = h.farm_id join gateways g on g.house_id = h.id
     where f.name = $1 and h.name = $2`,
    [farm, house],
  );
  if (!row) throw new Error(`no demo house ${house} in ${farm}`);
  return {
    houseId: row.house_id,
    farmId: row.farm_id,
    networkId: row.network_id,
    gatewayId: row.gateway_id,
  };
}

export async function setLimits(
  database: Database,
  houseId: number,
  limits: Record<string, number>,
) {
  await database.query(
    `insert into alarm_limits (house_id, limits) values ($1, $2::jsonb)
     on conflict (house_id) do update set limits = excluded.limits`,
    [houseId, JSON.stringify(limits)],
  );
}

export async function openAlarms(database: Database, houseId: number) {
  return database.query<{
    id: number;
    cause: string;
    subject: string;
    state: string;
    occurrences: number;
  }>(
    `select id, cause, subject, state, occurrences from alarms where house_id = $1 and state <> 'cleared' order by id`,
    [houseId],
  );
}

/** A farm of its own with `count` houses, for the statement tests (no demo data needed). */
export async function farmWithHouses(database: Database, count: number, code = 'stmt-test') {
  const [org] = await database.db
    .insert(organizations)
    .values({ name: code, code })
    .returning({ id: organizations.id });
  const [farm] = await database.db
    .insert(farms)
    .values({ orgId: org!.id, level: 'farm', name: `${code} farm` })
    .returning({ id: farms.id });
  const houseIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const [house] = await database.db
      .insert(houses)
      .values({ farmId: farm!.id, name: `${code} house ${i + 1}` })
      .returning({ id: houses.id });
    houseIds.push(house!.id);
  }
  return { farmId: farm!.id, houseIds };
}
