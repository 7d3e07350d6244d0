import { pino } from 'pino';
import { wireCommands } from '../../server/envcontrol/wiring';
import { embeddedPublish } from '../../server/envcontrol/publish';
import { startEmbeddedBroker } from '../../server/mqtt/broker';
import { CommandReplyPort } from '../../server/mqtt/replyPort';
import { startSimulator } from '../../server/simulator/simulator';
import type { TestApp } from '../helpers/testApp';

/** Long enough to read every row of the matrix without the gateway's readings adding noise. */
const READING_INTERVAL_MS = 10 * 60_000;
/** A loaded machine connects and reports slowly; the gateway is waited for once per app. */
const READY_WITHIN_MS = 60_000;

/**
 * A gateway that answers, for the rows whose request the gateway itself must answer (the device
 * log): the embedded broker on a free port, the command dispatcher and one simulated gateway
 * of the demo, on the test app's own bus and database, stopped before the app closes. Resolves
 * once the gateway is online and listening for commands (it reports its parameters after it
 * subscribed). Only this house's gateway is connected: commands other rows store for other
 * houses stay queued, so no row sees a command change state behind its back.
 */
export async function startAnsweringGateway(t: TestApp, houseId: number): Promise<void> {
  const gateway = t.boot.demoGateways?.find((g) => g.houseId === houseId);
  if (!gateway) throw new Error(`house ${houseId} has no demo gateway`);
  const replies = new CommandReplyPort((networkId, reason, detail) =>
    t.ingest.rejected(networkId, reason, detail),
  );
  const broker = await startEmbeddedBroker({ ingest: t.ingest, replies }, 0, '127.0.0.1', t.events);
  const dispatcher = wireCommands({
    database: t.database,
    events: t.events,
    ingest: t.ingest,
    replies,
    publish: embeddedPublish(broker),
    log: pino({ level: 'silent' }),
  });
  const simulator = await startSimulator({
    url: `mqtt://127.0.0.1:${broker.port}`,
    gateways: [gateway],
    intervalMs: READING_INTERVAL_MS,
    seed: 5,
    controller: { localChangeChance: 0 },
  });
  t.onClose(async () => {
    await simulator.stop();
    await dispatcher.stop();
    await broker.close();
  });
  const until = Date.now() + READY_WITHIN_MS;
  for (;;) {
    const [row] = await t.database.query<{ online: boolean; reported: boolean }>(
      `select s.online, exists (select 1 from gateway_params p where p.gateway_id = s.gateway_id) as reported
       from house_state s where s.house_id = $1`,
      [houseId],
    );
    if (row?.online && row.reported) return;
    if (Date.now() > until) throw new Error(`the gateway of house ${houseId} did not come online`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
