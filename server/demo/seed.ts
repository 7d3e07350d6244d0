import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/client';
import {
  breedTargets,
  breeds,
  farms,
  flocks,
  gateways,
  houses,
  immuneReminders,
  organizations,
  userFarms,
  userHouses,
  users,
} from '../db/schema';
import { FEED_BIN_CODE } from '../../src/contract/earlyWarnings';
import { terminalDevices } from '../db/devicesSchema';
import { BIN_CAPACITY_KG } from '../simulator/feedBin';
import { assignDemoStories, FEED_STORY_AGE_DAYS, type DemoStory } from './stories';
import { hashPassword } from '../auth/password';
import { hashToken, newToken } from '../auth/tokens';
import { BROILER, LAYER, type BreedStandard } from './breedStandards';
import {
  DEMO_FARMS,
  DEMO_GATEWAY_TYPES,
  DEMO_INTERVAL_SECONDS,
  DEMO_PASSWORD,
  DEMO_USERS,
} from './demoFarms';

/** The demo gateways' tokens in DATA_DIR, for the simulator (and in every backup). */
export const DEMO_GATEWAYS_FILE = 'demo-gateways.json';

export interface DemoGateway {
  networkId: string;
  token: string;
  houseId: number;
  houseName: string;
  farmName: string;
  typeKey: number;
  breed: 'broiler' | 'layer';
  /** The open flock: the simulator derives the age in days from these. */
  placedOn: string;
  ageAtPlacement: number;
  headCount: number;
  provinceAdcode: string;
  longitude: number;
  latitude: number;
  /** The house's feed bin has a level sensor (a terminal device's `feed_bin`): the simulator reports it. */
  feedBin?: boolean;
  /** The early warning this house's past makes true (server/demo/stories.ts), if any. */
  story?: DemoStory;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Seeds the demo organisation on an empty database: a group with two companies, seven farms,
 * 42 houses with gateways and flocks, both standard breeds and one user of each role.
 * Writes the gateways' tokens to `<dataDir>/demo-gateways.json` (mode 600) for the simulator.
 */
export async function seedDemo(
  db: Db,
  dataDir: string,
  adminPasswordHash: string,
  now = new Date(),
): Promise<DemoGateway[]> {
  const demoHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    const [org] = await tx
      .insert(organizations)
      .values({
        name: 'Golden Plains Poultry',
        code: 'GPP',
        principal: 'Demo Administrator',
        email: 'ops@example.com',
        mapType: '1',
        remark: 'Demo organisation',
      })
      .returning();
    if (!org) throw new Error('demo organisation not created');
    const broilerId = await insertBreed(tx, BROILER);
    const layerId = await insertBreed(tx, LAYER);

    const [group] = await tx
      .insert(farms)
      .values({ orgId: org.id, level: 'group', name: 'Golden Plains Group' })
      .returning();
    if (!group) throw new Error('demo group not created');
    const companies = await tx
      .insert(farms)
      .values([
        {
          orgId: org.id,
          parentId: group.id,
          level: 'company',
          name: 'North China Broilers Co.',
          type: 'broiler',
        },
        {
          orgId: org.id,
          parentId: group.id,
          level: 'company',
          name: 'South China Layers Co.',
          type: 'layer',
        },
      ])
      .returning();
    const companyId = { north: companies[0]!.id, south: companies[1]!.id };

    const demoGateways: DemoGateway[] = [];
    const farmIds = new Map<string, number>();
    let houseIndex = 0;
    for (const farm of DEMO_FARMS) {
      const [row] = await tx
        .insert(farms)
        .values({
          orgId: org.id,
          parentId: companyId[farm.company],
          level: 'farm',
          name: farm.name,
          type: farm.breed,
          provinceAdcode: farm.provinceAdcode,
          provinceName: farm.provinceName,
          longitude: farm.longitude,
          latitude: farm.latitude,
          address: farm.address,
        })
        .returning();
      if (!row) throw new Error('demo farm not created');
      farmIds.set(farm.key, row.id);
      for (let n = 1; n <= farm.houses; n += 1, houseIndex += 1) {
        const [house] = await tx
          .insert(houses)
          .values({ farmId: row.id, name: `House ${n}`, sort: n })
          .returning();
        if (!house) throw new Error('demo house not created');
        const token = newToken();
        const typeKey = DEMO_GATEWAY_TYPES[houseIndex % DEMO_GATEWAY_TYPES.length]!;
        const networkId = `GW${farm.provinceAdcode.slice(0, 2)}${String(row.id).padStart(2, '0')}${String(n).padStart(2, '0')}`;
        await tx.insert(gateways).values({
          houseId: house.id,
          networkId,
          typeKey,
          number: `SN-${networkId}`,
          version: typeKey === 60 ? '3.2.1' : '2.8.4',
          simCard: `8986${String(11_000_000 + houseIndex * 7919).padStart(16, '0')}`,
          tokenHash: hashToken(token),
          intervalSeconds: DEMO_INTERVAL_SECONDS,
        });
        // Ages spread over the whole cycle so the demo shows young and old flocks at once.
        const broiler = farm.breed === 'broiler';
        // The second-last house of each broiler farm weighs its feed bin: the feed warning's demo.
        const feedBin = broiler && n === farm.houses - 1;
        // The first of them tells the feed story (assignDemoStories): its flock eats in earnest.
        const feedStory = feedBin && !demoGateways.some((g) => g.feedBin);
        const age = feedStory
          ? FEED_STORY_AGE_DAYS
          : broiler
            ? 1 + ((houseIndex * 7) % 42)
            : 120 + ((houseIndex * 37) % 330);
        const ageAtPlacement = broiler ? 1 : 112;
        const placedOn = isoDate(new Date(now.getTime() - (age - ageAtPlacement) * DAY_MS));
        const headCount = broiler
          ? 20_000 + (houseIndex % 5) * 2_500
          : 50_000 + (houseIndex % 4) * 10_000;
        const breedId = broiler ? broilerId : layerId;
        await tx
          .insert(flocks)
          .values({ houseId: house.id, breedId, placedOn, ageAtPlacement, headCount });
        if (feedBin)
          await tx.insert(terminalDevices).values({
            houseId: house.id,
            name: 'Feed bin',
            code: `BIN-${n}`,
            type: 'sensor',
            extras: [
              {
                code: FEED_BIN_CODE,
                name: 'Feed bin',
                unit: 'kg',
                min: 0,
                max: BIN_CAPACITY_KG * 2,
              },
            ],
          });
        demoGateways.push({
          feedBin,
          networkId,
          token,
          houseId: house.id,
          houseName: house.name,
          farmName: farm.name,
          typeKey,
          breed: farm.breed,
          placedOn,
          ageAtPlacement,
          headCount,
          provinceAdcode: farm.provinceAdcode,
          longitude: farm.longitude,
          latitude: farm.latitude,
        });
      }
    }

    const userIds = new Map<string, number>();
    for (const u of DEMO_USERS) {
      const [row] = await tx
        .insert(users)
        .values({
          orgId: org.id,
          username: u.username,
          passwordHash: u.username === 'admin' ? adminPasswordHash : demoHash,
          realName: u.realName,
          roleKey: u.roleKey,
          department: 'Operations',
          position: u.roleKey.replace('_', ' '),
          canOperate: true,
          remoteConfig: u.roleKey === 'administrator' || u.roleKey === 'company_manager',
          scopeNodeId: u.roleKey === 'company_manager' ? companyId.north : null,
        })
        .returning();
      userIds.set(u.username, row!.id);
    }
    await tx.insert(userFarms).values([
      { userId: userIds.get('area')!, farmId: farmIds.get('weifang')! },
      { userId: userIds.get('area')!, farmId: farmIds.get('shijiazhuang')! },
      { userId: userIds.get('farm')!, farmId: farmIds.get('weifang')! },
    ]);
    const weifangHouses = demoGateways
      .filter((g) => g.farmName === DEMO_FARMS[0]!.name)
      .slice(0, 3);
    await tx
      .insert(userHouses)
      .values(weifangHouses.map((g) => ({ userId: userIds.get('shack')!, houseId: g.houseId })));

    assignDemoStories(demoGateways, isoDate(now));
    writeDemoGateways(dataDir, demoGateways);
    return demoGateways;
  });
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function insertBreed(tx: Tx, standard: BreedStandard): Promise<number> {
  const [breed] = await tx
    .insert(breeds)
    .values({
      name: standard.name,
      code: standard.code,
      factory: standard.factory,
      description: standard.description,
      isCommon: true,
      operator: 'Roost',
    })
    .returning();
  if (!breed) throw new Error('breed not created');
  await tx.insert(breedTargets).values(standard.rows.map((r) => ({ breedId: breed.id, ...r })));
  await tx
    .insert(immuneReminders)
    .values(standard.immune.map((r) => ({ breedId: breed.id, ...r })));
  return breed.id;
}

/** The simulator's keys: only the owner of the data folder may read them. */
function writeDemoGateways(dataDir: string, list: DemoGateway[]): void {
  if (dataDir === 'memory://') return;
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DEMO_GATEWAYS_FILE);
  writeFileSync(file, `${JSON.stringify(list, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
