import { ALARM_CAUSES, ALARM_SEVERITIES, alarmSummarySchema, type AlarmSummary } from './alarms';
import { houseLiveSchema, type HouseLive } from './live';
import { houseOverviewSchema, overviewListSchema, type HouseOverview } from './overview';
import { type Paged } from './paged';

/**
 * The overview's answer checked by hand, as `plainTelemetry` checks a reading: zod's parse of
 * 20,000 houses took the console ~200 ms of its first render (the page's CSP forbids the code
 * zod would compile its checks into at run time). What this accepts, the schema accepts
 * unchanged: every key known, none missing, every value of its type; the answer is the data
 * itself, not a copy. Anything else answers null and goes through the schema, which then says
 * what is wrong. A property test holds the two together (tests/console/plainOverview.test.ts).
 */
export function plainOverviewList(data: unknown): Paged<HouseOverview> | null {
  if (!hasOnly(data, LIST_KEYS) || !isInt(data.total) || data.total < 0) return null;
  if (!Array.isArray(data.rows)) return null;
  for (const row of data.rows as unknown[]) if (!isHouseOverview(row)) return null;
  return data as unknown as Paged<HouseOverview>;
}

// The keys each object may hold, from the schemas themselves: the two cannot drift apart.
const LIST_KEYS = Object.keys(overviewListSchema.shape);
const OVERVIEW_KEYS = Object.keys(houseOverviewSchema.shape);
const LIVE_KEYS = Object.keys(houseLiveSchema.shape);
const ALARM_KEYS = Object.keys(houseLiveSchema.shape.alarm.shape);
const SUMMARY_KEYS = Object.keys(alarmSummarySchema.shape);
const CAUSES = new Set<string>(ALARM_CAUSES);
const SEVERITIES = new Set<string>(ALARM_SEVERITIES);

type Fields = Record<string, unknown>;

const isRecord = (v: unknown): v is Fields =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const orNull =
  <T>(check: (v: unknown) => v is T) =>
  (v: unknown): v is T | null =>
    v === null || check(v);
const isIntOrNull = orNull(isInt);
const isStringOrNull = orNull(isString);
const isNumberOrNull = orNull(isNumber);
/**
 * A key zod's copy of a record would not keep as an own key (assigning `__proto__` sets the
 * copy's prototype): such a record goes to the schema.
 */
const ownKey = (key: string) => key !== '__proto__';

/**
 * No key but these. A missing one is found by its value's check (undefined is of no type here),
 * and an extra one zod would strip: such an answer goes to the schema.
 */
function hasOnly(v: unknown, keys: readonly string[]): v is Fields {
  if (!isRecord(v)) return false;
  for (const key in v) if (!keys.includes(key)) return false;
  return true;
}

function isHouseOverview(v: unknown): v is HouseOverview {
  return (
    hasOnly(v, OVERVIEW_KEYS) &&
    isInt(v.houseId) &&
    isString(v.houseName) &&
    isInt(v.farmId) &&
    isString(v.farmName) &&
    isStringOrNull(v.provinceName) &&
    isStringOrNull(v.networkId) &&
    isIntOrNull(v.gatewayType) &&
    isStringOrNull(v.breedName) &&
    isIntOrNull(v.ageDays) &&
    isIntOrNull(v.headCount) &&
    isHouseLive(v.live)
  );
}

function isHouseLive(v: unknown): v is HouseLive {
  if (!hasOnly(v, LIVE_KEYS)) return false;
  if (
    !isInt(v.houseId) ||
    typeof v.online !== 'boolean' ||
    !(v.network === null || v.network === 'wired' || v.network === 'wireless') ||
    !isStringOrNull(v.gatewayVersion) ||
    !isStringOrNull(v.onlineSince) ||
    !isStringOrNull(v.lastSeenAt) ||
    !isStringOrNull(v.lastTs) ||
    !isIntOrNull(v.mode)
  )
    return false;
  if (!isRecordOf(v.metrics, isNumber) || !isRecordOf(v.faults, isString)) return false;
  if (!isRecordOf(v.devices, isDevice)) return false;
  const alarm = v.alarm;
  return (
    hasOnly(alarm, ALARM_KEYS) &&
    isInt(alarm.count) &&
    alarm.count >= 0 &&
    (alarm.top === null || isAlarmSummary(alarm.top))
  );
}

function isRecordOf(v: unknown, check: (value: unknown) => boolean): boolean {
  if (!isRecord(v)) return false;
  for (const key in v) if (!ownKey(key) || !check(v[key])) return false;
  return true;
}

function isDevice(v: unknown): boolean {
  if (!isRecord(v) || !isInt(v.state)) return false;
  for (const key in v) if (key !== 'state' && key !== 'opening') return false;
  return !('opening' in v) || isNumber(v.opening);
}

function isAlarmSummary(v: unknown): v is AlarmSummary {
  if (!hasOnly(v, SUMMARY_KEYS)) return false;
  return (
    isString(v.cause) &&
    CAUSES.has(v.cause) &&
    isString(v.severity) &&
    SEVERITIES.has(v.severity) &&
    isStringOrNull(v.subject) &&
    isNumberOrNull(v.value) &&
    isNumberOrNull(v.limit) &&
    isStringOrNull(v.text) &&
    (!('acknowledged' in v) || typeof v.acknowledged === 'boolean')
  );
}
