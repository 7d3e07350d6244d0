import { desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  checkParam,
  gatewayDetailsSchema,
  houseQuerySchema,
  PARAM_BY_KEY,
  paramChangeExportQuerySchema,
  paramChangeListSchema,
  paramChangeQuerySchema,
  PARAM_CHANGE_EXPORT_MAX,
  paramGroupsOf,
  sendConfigSchema,
  type GatewayDetails,
} from '../../src/contract/envcontrol';
import {
  DEVICE_LOG_WAIT_SECONDS,
  deviceLogListSchema,
  deviceLogRequestSchema,
} from '../../src/contract/deviceLog';
import { autoConfigSchema, configSentSchema } from '../../src/contract/envcontrolAnswers';
import { canSeeHouse, scopeOf, type Scope } from '../auth/scope';
import { gatewayParams } from '../db/envcontrolSchema';
import { gatewayOnlineLog } from '../db/telemetrySchema';
import { sessionOf, sourceOf, type AppContext } from '../http/context';
import { localeOf, ok } from '../http/envelope';
import { ApiError } from '../http/errors';
import { ANY_ROLE, answers, fileAnswer, type RoutePlugin } from '../http/routeSchema';
import { Refusal } from '../refusal';
import { autoConfig } from './autoConfig';
import { commandsOfHouse, paramsOfGateway } from './commandRows';
import { deviceLogsOfHouse, finalCommand, requestDeviceLog } from './deviceLog';
import { housesInScope } from './houses';
import { countRecords, readRecords, recordsCsv, recordsWhere } from './records';
import { canSend, DEFAULT_EXPIRY_SECONDS } from './rules';
import { queueConfig, type CommandTarget } from './queue';

/** Commands shown with a house: enough for a day of changes. */
const HOUSE_COMMANDS = 30;
/** Online log entries shown with a house. */
const ONLINE_LOG_ROWS = 20;

export { canSend, DEFAULT_EXPIRY_SECONDS } from './rules';

/** House Setting: a house's gateway, its parameters and commands; sending a change. */
export function envcontrolRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;
  const scopeFor = (request: FastifyRequest) => scopeOf(database.db, sessionOf(request).user);

  const housesOf = async (scope: Scope, houseIds: readonly number[]) =>
    housesInScope(database, scope, houseIds);

  return async (app) => {
    app.get(
      '/envcontrol/house',
      {
        schema: {
          summary:
            "A house's gateway: its parameters as last reported, its latest commands and online log",
          querystring: houseQuerySchema,
          response: answers(gatewayDetailsSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { houseId } = request.query;
        const [house] = await housesOf(await scopeFor(request), [houseId]);
        if (!house) throw new Refusal('notFound', 'http.notFound');
        const gatewayId = house.gatewayId;
        const onlineLog =
          gatewayId === null
            ? []
            : await database.db
                .select({
                  at: gatewayOnlineLog.at,
                  online: gatewayOnlineLog.online,
                  network: gatewayOnlineLog.network,
                })
                .from(gatewayOnlineLog)
                .where(eq(gatewayOnlineLog.gatewayId, gatewayId))
                .orderBy(desc(gatewayOnlineLog.at))
                .limit(ONLINE_LOG_ROWS);
        const [reported] =
          gatewayId === null
            ? []
            : await database.db
                .select({ reportedAt: gatewayParams.reportedAt })
                .from(gatewayParams)
                .where(eq(gatewayParams.gatewayId, gatewayId));
        const details: GatewayDetails = {
          houseId: house.houseId,
          houseName: house.houseName,
          farmId: house.farmId,
          farmName: house.farmName,
          province: house.province ?? '',
          breedName: house.breedName,
          gateway:
            gatewayId === null
              ? null
              : {
                  networkId: house.networkId ?? '',
                  typeKey: Number(house.typeKey),
                  version: house.version ?? '',
                  simCard: house.simCard ?? '',
                  number: house.number ?? '',
                  online: house.online ?? false,
                  network: house.network,
                  onlineSince: house.onlineSince ? house.onlineSince.toISOString() : null,
                },
          params: gatewayId === null ? {} : await paramsOfGateway(database.db, gatewayId),
          reportedAt: reported ? reported.reportedAt.toISOString() : null,
          groups: house.typeKey === null ? [] : [...paramGroupsOf(house.typeKey)],
          canSend: canSend(sessionOf(request).user),
          commands: await commandsOfHouse(database.db, house.houseId, HOUSE_COMMANDS),
          onlineLog: onlineLog.map((r) => ({
            at: r.at.toISOString(),
            online: r.online,
            network: r.network,
          })),
        };
        return ok(request, reply, details);
      },
    );

    app.get(
      '/envcontrol/autoConfig',
      {
        schema: {
          summary:
            "The parameters the breed standard suggests for a house's flock at its age today",
          querystring: houseQuerySchema,
          response: answers(autoConfigSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { houseId } = request.query;
        const [house] = await housesOf(await scopeFor(request), [houseId]);
        if (!house) throw new Refusal('notFound', 'http.notFound');
        const params =
          house.typeKey === null ? {} : await autoConfig(database.db, houseId, house.typeKey);
        return ok(request, reply, { params });
      },
    );

    app.post(
      '/envcontrol/send',
      {
        schema: {
          summary: 'Sends a change of parameters to the gateways of these houses',
          body: sendConfigSchema,
          response: answers(configSentSchema),
        },
        // Sending also needs the user's remote-configuration flag: checked below, as it is
        // granted per user, not per role.
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const body = request.body;
        const { user } = sessionOf(request);
        if (!canSend(user)) throw new Refusal('forbidden', 'envcontrol.noRemoteConfig');
        const keys = Object.keys(body.params);
        if (keys.length === 0) throw new Refusal('invalid', 'envcontrol.nothingToSend');
        const houses = await housesOf(await scopeFor(request), [...new Set(body.houseIds)]);
        // A house outside the caller's scope answers like one that does not exist.
        if (houses.length !== new Set(body.houseIds).size)
          throw new Refusal('notFound', 'http.notFound');
        const locale = localeOf(request);
        const targets: CommandTarget[] = [];
        for (const house of houses) {
          if (house.gatewayId === null || house.typeKey === null)
            throw new Refusal('invalid', 'envcontrol.noGateway');
          for (const key of keys) {
            const issue = checkParam(house.typeKey, key, body.params[key]);
            if (!issue) continue;
            const spec = PARAM_BY_KEY.get(key);
            throw new Refusal('invalid', `envcontrol.${issue.message}`, {
              param: spec ? spec.label[locale] : key,
              min: spec?.min ?? '',
              max: spec?.max ?? '',
              step: spec?.step ?? '',
              unit: spec?.unit ? ` ${spec.unit}` : '',
            });
          }
          targets.push({
            houseId: house.houseId,
            houseName: house.houseName,
            gatewayId: house.gatewayId,
            networkId: house.networkId ?? '',
          });
        }
        const commands = await queueConfig(database, ctx.events, {
          targets,
          params: body.params as Record<string, number>,
          expiresAt: new Date(
            Date.now() + (body.expiresInSeconds ?? DEFAULT_EXPIRY_SECONDS) * 1000,
          ),
          operator: { id: user.id, name: user.realName || user.username },
          source: sourceOf(request),
        });
        return ok(request, reply, { commands }, 'envcontrol.sent');
      },
    );

    /**
     * "Load device log": asks the gateway and waits for its answer (a few seconds); an offline
     * gateway is refused at once with a message saying so.
     */
    app.post(
      '/envcontrol/deviceLog',
      {
        schema: {
          summary: "Asks a house's gateway for its log and waits a few seconds for the answer",
          body: deviceLogRequestSchema,
          response: answers(deviceLogListSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const { houseId } = request.body;
        const { user } = sessionOf(request);
        const [house] = await housesOf(await scopeFor(request), [houseId]);
        if (!house) throw new Refusal('notFound', 'http.notFound');
        if (house.gatewayId === null) throw new Refusal('invalid', 'envcontrol.noGateway');
        if (!house.online) throw new Refusal('conflict', 'envcontrol.gatewayOffline');
        const id = await requestDeviceLog(database, ctx.events, {
          target: {
            houseId: house.houseId,
            houseName: house.houseName,
            gatewayId: house.gatewayId,
            networkId: house.networkId ?? '',
          },
          operator: { id: user.id, name: user.realName || user.username },
          source: sourceOf(request),
        });
        const command = await finalCommand(database, id, DEVICE_LOG_WAIT_SECONDS * 1000);
        if (command?.state !== 'applied') throw new Refusal('conflict', 'envcontrol.logNoAnswer');
        const logs = await deviceLogsOfHouse(database.db, house.houseId);
        return ok(request, reply, logs, 'envcontrol.logLoaded');
      },
    );

    app.get(
      '/envcontrol/deviceLog',
      {
        schema: {
          summary: "The device logs kept of a house's gateway, newest first",
          querystring: houseQuerySchema,
          response: answers(deviceLogListSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { houseId } = request.query;
        const [house] = await housesOf(await scopeFor(request), [houseId]);
        if (!house) throw new Refusal('notFound', 'http.notFound');
        return ok(request, reply, await deviceLogsOfHouse(database.db, houseId));
      },
    );

    app.get(
      '/envcontrol/records',
      {
        schema: {
          summary: 'The parameter changes of the houses in scope (modify records), a page of them',
          querystring: paramChangeQuerySchema,
          response: answers(paramChangeListSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        // A house outside the caller's scope answers like one that does not exist.
        if (q.houseId && !canSeeHouse(scope, q.houseId))
          throw new Refusal('notFound', 'http.notFound');
        const where = recordsWhere(scope, q);
        const [rows, total] = await Promise.all([
          readRecords(database.db, where, q.size, (q.page - 1) * q.size),
          countRecords(database.db, where),
        ]);
        return ok(request, reply, { rows, total });
      },
    );

    /** The modify records the filters select, as CSV with old and new values. */
    app.get(
      '/envcontrol/records/export',
      {
        schema: {
          summary: 'The parameter changes the filters select, as CSV with old and new values',
          querystring: paramChangeExportQuerySchema,
          response: fileAnswer(['text/csv'], 'The modify records as CSV'),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeFor(request);
        if (q.houseId && !canSeeHouse(scope, q.houseId))
          throw new Refusal('notFound', 'http.notFound');
        const where = recordsWhere(scope, q);
        if ((await countRecords(database.db, where)) > PARAM_CHANGE_EXPORT_MAX)
          throw new ApiError(422, 'admin.exportTooLarge', { max: PARAM_CHANGE_EXPORT_MAX });
        const rows = await readRecords(database.db, where, PARAM_CHANGE_EXPORT_MAX, 0);
        const stamp = new Date().toISOString().slice(0, 10);
        return reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="modify-records-${stamp}.csv"`)
          .send(recordsCsv(rows, localeOf(request), ctx.config.timeZone));
      },
    );
  };
}
