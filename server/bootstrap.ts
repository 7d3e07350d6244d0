import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { Config } from './config';
import type { Database } from './db/client';
import { settings, users } from './db/schema';
import { hashPassword } from './auth/password';
import { DEMO_PASSWORD } from './demo/demoFarms';
import { writeDemoHistory } from './demo/history/history';
import { seedDemo, type DemoGateway } from './demo/seed';
import type { HouseModel } from './simulator/houseModel';

/** The demo simulator's seed: the history's house models and the live ones must agree. */
export const DEMO_SEED = 1;

export interface BootstrapResult {
  demo: boolean;
  /** True when this start created the first administrator. */
  created: boolean;
  /** The administrator's password, only when this start made it up and nobody else knows it. */
  generatedAdminPassword: string | null;
  /** The demo gateways with their tokens, when this start seeded them (the simulator's keys). */
  demoGateways: DemoGateway[] | null;
  /** The house models standing at the end of the demo's new history, for the simulator. */
  demoModels: HouseModel[] | null;
}

/**
 * On an empty database: create the first administrator (user `admin`) and, in demo mode, the
 * demo organisation. Demo mode is remembered, so a restart without ROOST_DEMO keeps the demo.
 */
export async function bootstrap(config: Config, database: Database): Promise<BootstrapResult> {
  const { db } = database;
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(users);
  const empty = n === 0;
  const [stored] = await db.select().from(settings).where(eq(settings.key, 'demo'));
  // ROOST_DEMO defaults to on only for a new embedded database (an existing or external database keeps what it had).
  const demo = config.demo ?? (stored ? stored.value === '1' : empty && database.kind === 'pglite');
  if (!empty) {
    if (config.demo !== null && stored?.value !== (demo ? '1' : '0'))
      await saveDemoFlag(database, demo);
    return {
      demo,
      created: false,
      generatedAdminPassword: null,
      demoGateways: null,
      demoModels: null,
    };
  }

  let generated: string | null = null;
  let adminPassword = config.adminPassword ?? (demo ? DEMO_PASSWORD : null);
  if (adminPassword === null) {
    // Random, shown once at start: it meets every edition's rule (letters of both cases, digits).
    generated = `Rt${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}9`;
    adminPassword = generated;
  }
  const adminHash = await hashPassword(adminPassword);
  let demoGateways: DemoGateway[] | null = null;
  let demoModels: HouseModel[] | null = null;
  if (demo) {
    demoGateways = await seedDemo(db, config.dataDir, adminHash);
    // Only a new demo gets a past: an existing data directory is never rewritten.
    if (config.demoHistory)
      demoModels = await writeDemoHistory(database, demoGateways, {
        timeZone: config.timeZone,
        seed: DEMO_SEED,
      });
  } else {
    await db.insert(users).values({
      username: 'admin',
      passwordHash: adminHash,
      realName: 'Administrator',
      roleKey: 'administrator',
      canOperate: true,
      remoteConfig: true,
    });
  }
  await saveDemoFlag(database, demo);
  return { demo, created: true, generatedAdminPassword: generated, demoGateways, demoModels };
}

async function saveDemoFlag(database: Database, demo: boolean): Promise<void> {
  await database.db
    .insert(settings)
    .values({ key: 'demo', value: demo ? '1' : '0' })
    .onConflictDoUpdate({ target: settings.key, set: { value: demo ? '1' : '0' } });
}
