import { DEMO_FARMS, DEMO_GATEWAY_TYPES } from '../../server/demo/demoFarms';
import type { DemoGateway } from '../../server/demo/seed';
import { FEED_STORY_AGE_DAYS } from '../../server/demo/stories';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The 42 demo gateways as `seedDemo` builds them (same farms, ages and head counts), without a
 * database: fixtures for the model tests.
 */
export function demoFleet(now: number): DemoGateway[] {
  const list: DemoGateway[] = [];
  let houseIndex = 0;
  DEMO_FARMS.forEach((farm, farmIndex) => {
    for (let n = 1; n <= farm.houses; n += 1, houseIndex += 1) {
      const broiler = farm.breed === 'broiler';
      // The first broiler farm's second-last house tells the feed story (seed.ts).
      const feedStory = broiler && farmIndex === 0 && n === farm.houses - 1;
      const age = feedStory
        ? FEED_STORY_AGE_DAYS
        : broiler
          ? 1 + ((houseIndex * 7) % 42)
          : 120 + ((houseIndex * 37) % 330);
      const ageAtPlacement = broiler ? 1 : 112;
      const placedOn = new Date(now - (age - ageAtPlacement) * DAY_MS).toISOString().slice(0, 10);
      list.push({
        networkId: `GW${farm.provinceAdcode.slice(0, 2)}${String(farmIndex + 3).padStart(2, '0')}${String(n).padStart(2, '0')}`,
        token: `token-${houseIndex}`,
        houseId: houseIndex + 1,
        houseName: `House ${n}`,
        farmName: farm.name,
        typeKey: DEMO_GATEWAY_TYPES[houseIndex % DEMO_GATEWAY_TYPES.length]!,
        breed: farm.breed,
        placedOn,
        ageAtPlacement,
        headCount: broiler ? 20_000 + (houseIndex % 5) * 2_500 : 50_000 + (houseIndex % 4) * 10_000,
        provinceAdcode: farm.provinceAdcode,
        longitude: farm.longitude,
        latitude: farm.latitude,
      });
    }
  });
  return list;
}
