import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../http/context';
import { deviceContext } from '../access';
import { secretBoxFrom } from '../secrets';
import { MediaAddressRule } from '../mediaAddress';
import { countRunTime } from '../runtime';
import { cameraPlayRoutes } from './cameraPlay';
import { cameraRoutes } from './cameras';
import { concentratorRoutes } from './concentrators';
import { extraRoutes } from './extras';
import { maintenanceRoutes, type Clock } from './maintenance';
import { summaryRoutes } from './summary';
import { terminalRoutes } from './terminals';

const wallClock: Clock = () => new Date();

/**
 * The devices of a house: concentrators, terminal devices, maintenance. Also counts the
 * devices' running time from every stored batch (off the ingest path: the bus's queued
 * delivery), so maintenance by run hours follows what the fans really did.
 */
export function deviceRoutesWith(clock: Clock): (ctx: AppContext) => FastifyPluginAsync {
  return (ctx) => async (app) => {
    const dc = deviceContext(ctx.database, ctx.ingest.directory);
    const stop = ctx.events.on('batchStored', ({ readings }) =>
      countRunTime(ctx.database, readings),
    );
    app.addHook('onClose', async () => stop());
    await app.register(concentratorRoutes(dc));
    await app.register(terminalRoutes(dc));
    await app.register(maintenanceRoutes(dc, ctx.config.timeZone, clock));
    await app.register(summaryRoutes(dc, ctx.config.timeZone, clock));
    await app.register(extraRoutes(dc));
    // Camera credentials are sealed with ROOST_SECRET_KEY or a key file in DATA_DIR.
    const box = secretBoxFrom(process.env, ctx.config.dataDir);
    const { mediaUrl, mediaAllow } = ctx.config;
    await app.register(cameraRoutes(dc, box, mediaUrl));
    await app.register(cameraPlayRoutes(dc, mediaUrl, new MediaAddressRule(mediaAllow, mediaUrl)));
  };
}

export const deviceRoutes = deviceRoutesWith(wallClock);
