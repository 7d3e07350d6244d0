import { z } from 'zod';
import { idSchema } from './ids';
import { MAP_TYPES } from './domain';

/** A farm's worst house state, in order of gravity (alarm, offline, normal). */
export const WALL_STATES = ['alarm', 'offline', 'normal'] as const;
export type WallState = (typeof WALL_STATES)[number];

/** One farm as the wall screen places it on the map. */
export const wallFarmSchema = z.object({
  farmId: z.number().int(),
  name: z.string(),
  /** Six-digit adcode of its Chinese province, null outside China or when not set. */
  provinceAdcode: z.string().nullable(),
  provinceName: z.string().nullable(),
  /** Degrees (WGS84); null when the farm was never placed (it is then listed, not drawn). */
  longitude: z.number().nullable(),
  latitude: z.number().nullable(),
  houseCount: z.number().int().nonnegative(),
  worstState: z.enum(WALL_STATES),
  /** Open alarms of its houses, and those nobody acknowledged yet (the point pulses). */
  alarmCount: z.number().int().nonnegative(),
  unacknowledged: z.number().int().nonnegative(),
});
export type WallFarm = z.infer<typeof wallFarmSchema>;

/** GET /api/wall/map: the farms in the user's scope and the organisation's map type. */
export const wallMapSchema = z.object({
  mapType: z.enum(MAP_TYPES),
  /**
   * The deployment's IANA zone (ROOST_TIMEZONE): the wall counts its days and hours in it, as
   * every day the server keeps is counted, and writes its clock in it.
   */
  timeZone: z.string(),
  farms: z.array(wallFarmSchema),
});
export type WallMap = z.infer<typeof wallMapSchema>;

/** GET /api/wall/province/:adcode: the farms of one province in scope. */
export const wallProvinceSchema = z.object({
  adcode: z.string(),
  farms: z.array(wallFarmSchema),
});
export type WallProvince = z.infer<typeof wallProvinceSchema>;

/** One house of a farm, as the drill-down lists it (its live values come from the houses). */
export const wallHouseSchema = z.object({
  houseId: z.number().int(),
  name: z.string(),
  state: z.enum(WALL_STATES),
  alarmCount: z.number().int().nonnegative(),
});
export type WallHouse = z.infer<typeof wallHouseSchema>;

/** GET /api/wall/farm/:farmId. */
export const wallFarmHousesSchema = z.object({
  farm: wallFarmSchema,
  houses: z.array(wallHouseSchema),
});
export type WallFarmHouses = z.infer<typeof wallFarmHousesSchema>;

export const wallProvinceParamsSchema = z.object({ adcode: z.string().regex(/^\d{6}$/) });
export const wallFarmParamsSchema = z.object({ farmId: idSchema });
