import type { ConfigReport } from '../../src/contract/gateway';
import type { Database } from '../db/client';
import type { ServerEvents } from '../events';
import type { HouseLiveState } from '../houses/state';
import type { GatewayInfo } from '../ingest/gatewayDirectory';
import { recordGatewayVersion } from '../ingest/status';
import { recordParams } from './commandRows';

/**
 * A gateway's config/report: its whole parameter set and the version it runs, stored, then
 * announced. An open House Setting follows it live (`gateway:reported`): a value changed at
 * the controller's keypad once stayed old on the page until it was reloaded.
 */
export async function storeReport(
  database: Database,
  events: ServerEvents,
  gateway: GatewayInfo,
  report: ConfigReport,
): Promise<void> {
  const { stored, states } = await database.transaction(async ({ db }) => {
    const stored = await recordParams(db, {
      gatewayId: gateway.gatewayId,
      houseId: gateway.houseId,
      values: report.params,
      source: 'local',
      operatorName: '',
      commandId: null,
      replace: report.source === 'device',
    });
    const states = report.version
      ? await recordGatewayVersion(db, gateway.gatewayId, report.version)
      : [];
    return { stored, states };
  });
  if (states.length > 0) await events.emit('houseSummary', states);
  if (gateway.houseId === null || (!stored && states.length === 0)) return;
  void events.emit('gatewayReported', [
    {
      houseId: gateway.houseId,
      params: stored?.params ?? null,
      reportedAt: stored?.reportedAt.toISOString() ?? null,
      version: states.length > 0 ? (report.version ?? null) : null,
    },
  ]);
}

/**
 * The version an upgrade's `done` said the gateway came back on (`recordProgress`): on the
 * house's live state, and on an open House Setting.
 */
export async function announceVersion(
  events: ServerEvents,
  states: readonly HouseLiveState[],
): Promise<void> {
  if (states.length === 0) return;
  await events.emit('houseSummary', states);
  void events.emit(
    'gatewayReported',
    states.map((s) => ({
      houseId: s.houseId,
      params: null,
      reportedAt: null,
      version: s.gatewayVersion,
    })),
  );
}
