import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { ackByLinkSchema, type AckPage } from '../../../src/contract/notify';
import { AlarmService, readAlarm } from '../../alarms/service';
import type { Scope } from '../../auth/scope';
import { sourceOf, type AppContext } from '../../http/context';
import { ok, parseInput } from '../../http/envelope';
import { Refusal } from '../../refusal';
import { checkAckToken, existingAckLinkSecret } from '../ackLink';

const tokenParams = z.object({ token: z.string().min(10).max(300) });

/**
 * The signed acknowledge link: a page anyone holding the link may open without signing in,
 * for that one alarm, until the link expires. A tampered link and an expired one are refused
 * alike for every alarm (403), and say nothing about the alarm.
 */
export function ackRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database } = ctx;
  const service = new AlarmService(database, ctx.events);
  /** Kept once found; until a link was signed there is no key, and no token can be valid. */
  let secret: Buffer | null = null;

  const check = async (token: string) => {
    secret ??= await existingAckLinkSecret(database);
    const result: ReturnType<typeof checkAckToken> = secret
      ? checkAckToken(secret, token, new Date())
      : { ok: false, reason: 'invalid' };
    if (!result.ok)
      throw new Refusal(
        'forbidden',
        result.reason === 'expired' ? 'notify.linkExpired' : 'notify.linkInvalid',
      );
    const alarm = await database.transaction((q) => readAlarm(q, result.alarmId));
    const [phone] = await database.query<{ phone: string }>(
      'select phone from alarm_phones where id = $1',
      [result.phoneId],
    );
    if (!alarm || !phone) throw new Refusal('notFound', 'alarms.notFound');
    return { ...result, alarm, phone: phone.phone };
  };

  const pageOf = (
    alarm: NonNullable<Awaited<ReturnType<typeof readAlarm>>>,
    expiresAt: Date,
  ): AckPage => ({
    alarmId: alarm.id,
    cause: alarm.cause,
    severity: alarm.severity,
    farmName: alarm.farmName,
    houseName: alarm.houseName,
    value: alarm.value,
    limit: alarm.limit,
    text: alarm.text,
    state: alarm.state,
    raisedAt: alarm.raisedAt,
    acknowledgedAt: alarm.acknowledgedAt,
    acknowledgedBy: alarm.acknowledgedBy,
    ackComment: alarm.ackComment,
    expiresAt: expiresAt.toISOString(),
  });

  return async (app) => {
    app.get('/notify/ack/:token', { config: { public: true } }, async (request, reply) => {
      const { token } = parseInput(tokenParams, request.params);
      const link = await check(token);
      return ok(request, reply, pageOf(link.alarm, link.expiresAt));
    });

    app.post('/notify/ack', { config: { public: true } }, async (request, reply) => {
      const input = parseInput(ackByLinkSchema, request.body);
      const link = await check(input.token);
      // The link's whole scope is its one alarm.
      const scope: Scope = {
        all: false,
        farmIds: new Set([link.alarm.farmId]),
        houseIds: new Set([link.alarm.houseId]),
      };
      const result = await service.acknowledge(
        link.alarm.id,
        { id: null, name: link.phone },
        scope,
        input.comment ? input.comment : null,
        sourceOf(request) === 'computer' ? 'mobile' : sourceOf(request),
      );
      if (!result.ok)
        throw new Refusal(
          result.reason === 'notFound' ? 'notFound' : 'conflict',
          result.reason === 'notFound' ? 'alarms.notFound' : 'alarms.notActive',
        );
      return ok(request, reply, pageOf(result.alarm, link.expiresAt), 'alarms.acknowledged');
    });
  };
}
