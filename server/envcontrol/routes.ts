import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  checkParam,
  houseQuerySchema,
  PARAM_BY_KEY,
  paramChangeQuerySchema,
  paramGroupsOf,
  sendConfigSchema,
  type GatewayDetails,
  type ParamChange,
} from '../../src/contract/envcontrol';
import { canSeeHouse, scopeOf, type Scope } from '../auth/scope';
import type { SessionUser } from '../auth/sessions';
import { sessionOf, sourceOf, type AppContext } from '../http/context';
import { localeOf, ok, parseInput } from '../http/envelope';
import { Refusal } from '../refusal';
import { autoConfig } from './autoConfig';
import { commandsOfHouse, paramsOfGateway } from './commandRows';
import { queueConfig, type CommandTarget } from './queue';

/** A command waits this long for its gateway unless the request says otherwise. */
export const DEFAULT_EXPIRY_SECONDS = 3600;
/** Commands shown with a house: enough for a day of changes. */
const HOUSE_COMMANDS = 30;
/** Online log entries shown with a house. */
const ONLINE_LOG_ROWS = 20;

/** Remote configuration needs both the operating permission and the remote-configuration flag. */
export function canSend(user: SessionUser): boolean {
  return user.canOperate && user.remoteConfig;
}

interface HouseRow {
  houseId: number;
  houseName: string;
  farmId: number;
  farmName: string;
  province: string | null;
  breedName: string | null;
  gatewayId: number | null;
  networkId: string | null;
  typeKey: number | null;
  version: string | null;
  simCard: string | null;
  number: string | null;
  online: boolean | null;
  network: string | null;
  onlineSince: Date | string | null;
}

/** House Setting: a house's gateway, its parameters and commands; sending a change. */
export function envcontrolRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database } = ctx;
  const scopeFor = (request: FastifyRequest) => scopeOf(database.db, sessionOf(request).user);

  const housesOf = async (scope: Scope, houseIds: readonly number[]): Promise<HouseRow[]> => {
    const visible = houseIds.filter((id) => canSeeHouse(scope, id));
    if (visible.length === 0) return [];
    return database.query<HouseRow>(
      `select h.id as "houseId", h.name as "houseName", f.id as "farmId", f.name as "farmName",
         f.province_name as province, b.name as "breedName", g.id as "gatewayId", g.network_id as "networkId",
         g.type_key as "typeKey", g.version, g.sim_card as "simCard", g.number, s.online, s.network,
         s.online_since as "onlineSince"
       from houses h join farms f on f.id = h.farm_id
       left join gateways g on g.house_id = h.id
       left join house_state s on s.house_id = h.id
       left join flocks fl on fl.house_id = h.id and fl.closed_on is null
       left join breeds b on b.id = fl.breed_id
       where h.id = any($1::int[]) order by h.id`,
      [visible],
    );
  };

  return async (app) => {
    app.get('/envcontrol/house', async (request, reply) => {
      const { houseId } = parseInput(houseQuerySchema, request.query);
      const [house] = await housesOf(await scopeFor(request), [houseId]);
      if (!house) throw new Refusal('notFound', 'http.notFound');
      const gatewayId = house.gatewayId === null ? null : Number(house.gatewayId);
      const onlineLog =
        gatewayId === null
          ? []
          : await database.query<{ at: Date | string; online: boolean; network: string | null }>(
              'select at, online, network from gateway_online_log where gateway_id = $1 order by at desc limit $2',
              [gatewayId, ONLINE_LOG_ROWS],
            );
      const [reported] =
        gatewayId === null
          ? []
          : await database.query<{ reported_at: Date | string }>(
              'select reported_at from gateway_params where gateway_id = $1',
              [gatewayId],
            );
      const details: GatewayDetails = {
        houseId: Number(house.houseId),
        houseName: house.houseName,
        farmId: Number(house.farmId),
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
                onlineSince: house.onlineSince ? new Date(house.onlineSince).toISOString() : null,
              },
        params: gatewayId === null ? {} : await paramsOfGateway(database.query, gatewayId),
        reportedAt: reported ? new Date(reported.reported_at).toISOString() : null,
        groups: house.typeKey === null ? [] : [...paramGroupsOf(Number(house.typeKey))],
        canSend: canSend(sessionOf(request).user),
        commands: await commandsOfHouse(database.query, Number(house.houseId), HOUSE_COMMANDS),
        onlineLog: onlineLog.map((r) => ({
          at: new Date(r.at).toISOString(),
          online: r.online,
          network: r.network,
        })),
      };
      return ok(request, reply, details);
    });

    app.get('/envcontrol/autoConfig', async (request, reply) => {
      const { houseId } = parseInput(houseQuerySchema, request.query);
      const [house] = await housesOf(await scopeFor(request), [houseId]);
      if (!house) throw new Refusal('notFound', 'http.notFound');
      const params =
        house.typeKey === null
          ? {}
          : await autoConfig(database.query, houseId, Number(house.typeKey));
      return ok(request, reply, { params });
    });

    app.post('/envcontrol/send', async (request, reply) => {
      const body = parseInput(sendConfigSchema, request.body);
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
          const issue = checkParam(Number(house.typeKey), key, body.params[key]);
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
          houseId: Number(house.houseId),
          houseName: house.houseName,
          gatewayId: Number(house.gatewayId),
          networkId: house.networkId ?? '',
        });
      }
      const commands = await queueConfig(database, ctx.events, {
        targets,
        params: body.params as Record<string, number>,
        expiresAt: new Date(Date.now() + (body.expiresInSeconds ?? DEFAULT_EXPIRY_SECONDS) * 1000),
        operator: { id: user.id, name: user.realName || user.username },
        source: sourceOf(request),
      });
      return ok(request, reply, { commands }, 'envcontrol.sent');
    });

    app.get('/envcontrol/records', async (request, reply) => {
      const q = parseInput(paramChangeQuerySchema, request.query);
      const scope = await scopeFor(request);
      // A house outside the caller's scope answers like one that does not exist.
      if (q.houseId && !canSeeHouse(scope, q.houseId))
        throw new Refusal('notFound', 'http.notFound');
      const params: unknown[] = [];
      const where: string[] = [];
      if (!scope.all) where.push(`c.house_id = any($${params.push([...scope.houseIds])}::int[])`);
      if (q.houseId) where.push(`c.house_id = $${params.push(q.houseId)}`);
      if (q.source) where.push(`c.source = $${params.push(q.source)}`);
      const clause = where.length > 0 ? where.join(' and ') : 'true';
      const [count] = await database.query<{ n: number }>(
        `select count(*)::int as n from param_changes c where ${clause}`,
        params,
      );
      const rows = await database.query<ParamChange & { at: Date | string }>(
        `select c.id, c.house_id as "houseId", h.name as "houseName", c.at, c.source,
           c.operator_name as operator, c.key, c.old_value as "oldValue", c.new_value as "newValue"
         from param_changes c join houses h on h.id = c.house_id where ${clause}
         order by c.at desc, c.id desc limit $${params.push(q.size)} offset $${params.push((q.page - 1) * q.size)}`,
        params,
      );
      return ok(request, reply, {
        rows: rows.map((r) => ({
          ...r,
          id: Number(r.id),
          houseId: Number(r.houseId),
          at: new Date(r.at).toISOString(),
          oldValue: r.oldValue === null ? null : Number(r.oldValue),
          newValue: Number(r.newValue),
        })),
        total: Number(count?.n ?? 0),
      });
    });
  };
}
