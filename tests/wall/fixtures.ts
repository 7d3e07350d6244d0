import { type WallFarm } from '../../src/contract/wall';
import { type WallHouseInput } from '../../src/screens/wall/wallModel';

/** A farm as /api/wall/map sends it; `over` changes what a test is about. */
export const farm = (farmId: number, over: Partial<WallFarm> = {}): WallFarm => ({
  farmId,
  name: `Farm ${farmId}`,
  provinceAdcode: '370000',
  provinceName: '山东省',
  longitude: 119,
  latitude: 36,
  houseCount: 2,
  worstState: 'normal',
  alarmCount: 0,
  unacknowledged: 0,
  ...over,
});

/** A house as the live store holds it: online or not, with `alarms` open (the top one major). */
export const house = (
  houseId: number,
  farmId: number,
  online: boolean,
  alarms = 0,
): WallHouseInput => ({
  houseId,
  houseName: `House ${houseId}`,
  farmId,
  headCount: 25_000,
  live: {
    online,
    metrics: {},
    alarm: {
      count: alarms,
      top: alarms
        ? { cause: 'nh3High', severity: 'major', subject: 'nh3', value: 40, limit: 30, text: null }
        : null,
    },
  },
});
