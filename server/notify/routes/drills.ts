import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  drillIdQuerySchema,
  drillListQuerySchema,
  drillScheduleSchema,
  drillStartSchema,
  type DrillScheduleRow,
} from '../../../src/contract/notifyDrill';
import { sessionOf, type AppContext } from '../../http/context';
import { localeOf, ok, parseInput } from '../../http/envelope';
import { Refusal } from '../../refusal';
import { startDrill } from '../drill';
import { drillCsv, drillList, drillReport } from '../drillReport';
import { logChange } from './shared';
import { OPERATING } from '../../auth/operate';

/** Drills are the administrator's: they call every person of a house, whoever runs it. */
function requireAdmin(request: FastifyRequest) {
  const { user } = sessionOf(request);
  if (user.roleKey !== 'administrator') throw new Refusal('forbidden', 'auth.forbidden');
  return user;
}

/**
 * Alarm drills: start one for a house now, schedule one weekly, list them, and read a drill's
 * report (JSON, or CSV to hand on). The sending is the alarm dispatcher's (server/notify/drill.ts).
 */
export function drillRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database } = ctx;

  const houseOf = async (houseId: number) => {
    const [house] = await database.query<{ id: number; name: string; farm_id: number }>(
      'select id, name, farm_id from houses where id = $1',
      [houseId],
    );
    if (!house) throw new Refusal('notFound', 'http.notFound');
    return house;
  };

  return async (app) => {
    app.post('/notify/drill/start', OPERATING, async (request, reply) => {
      const user = requireAdmin(request);
      const { houseId } = parseInput(drillStartSchema, request.body);
      const house = await houseOf(houseId);
      const id = await startDrill(
        database,
        { farmId: house.farm_id, houseId },
        user.realName || user.username,
        false,
        new Date(),
      );
      if (id === null) throw new Refusal('conflict', 'notify.drillNobody');
      await logChange(database, request, 'notify.drill.start', `#${id}`, {
        id: house.id,
        name: house.name,
      });
      const report = await drillReport(database.query, id);
      return ok(request, reply, report!.drill, 'notify.drillStarted');
    });

    app.get('/notify/drill/list', async (request, reply) => {
      requireAdmin(request);
      const q = parseInput(drillListQuerySchema, request.query);
      const rows = await drillList(database.query, q.houseId);
      return ok(request, reply, { rows, total: rows.length });
    });

    app.get('/notify/drill/report', async (request, reply) => {
      requireAdmin(request);
      const { id } = parseInput(drillIdQuerySchema, request.query);
      const report = await drillReport(database.query, id);
      if (!report) throw new Refusal('notFound', 'http.notFound');
      return ok(request, reply, report);
    });

    app.get('/notify/drill/report.csv', async (request, reply) => {
      requireAdmin(request);
      const { id } = parseInput(drillIdQuerySchema, request.query);
      const report = await drillReport(database.query, id);
      if (!report) throw new Refusal('notFound', 'http.notFound');
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="alarm-drill-${id}.csv"`)
        .send(drillCsv(report, localeOf(request) === 'zh' ? 'zh' : 'en'));
    });

    app.get('/notify/drill/schedules', async (request, reply) => {
      requireAdmin(request);
      const rows = await database.query<{
        house_id: number;
        house_name: string;
        farm_id: number;
        farm_name: string;
        weekday: number;
        time: string;
        created_by: string;
        last_run_at: Date | string | null;
      }>(
        `select s.house_id, h.name as house_name, s.farm_id, f.name as farm_name, s.weekday, s.time,
           s.created_by, s.last_run_at
         from notify_drill_schedules s join houses h on h.id = s.house_id join farms f on f.id = s.farm_id
         order by f.name, h.name`,
      );
      const out: DrillScheduleRow[] = rows.map((r) => ({
        houseId: r.house_id,
        houseName: r.house_name,
        farmId: r.farm_id,
        farmName: r.farm_name,
        weekday: r.weekday,
        time: r.time,
        createdBy: r.created_by,
        lastRunAt: r.last_run_at === null ? null : new Date(r.last_run_at).toISOString(),
      }));
      return ok(request, reply, { rows: out, total: out.length });
    });

    app.post('/notify/drill/schedule', OPERATING, async (request, reply) => {
      const user = requireAdmin(request);
      const v = parseInput(drillScheduleSchema, request.body);
      const house = await houseOf(v.houseId);
      if (v.weekday === null)
        await database.query('delete from notify_drill_schedules where house_id = $1', [house.id]);
      else
        await database.query(
          `insert into notify_drill_schedules (house_id, farm_id, weekday, time, created_by)
           values ($1, $2, $3, $4, $5)
           on conflict (house_id) do update set weekday = excluded.weekday, time = excluded.time,
             created_by = excluded.created_by`,
          [house.id, house.farm_id, v.weekday, v.time, user.realName || user.username],
        );
      await logChange(
        database,
        request,
        'notify.drill.schedule',
        v.weekday === null ? 'off' : `${v.weekday} ${v.time}`,
        { id: house.id, name: house.name },
      );
      return ok(
        request,
        reply,
        { houseId: house.id, weekday: v.weekday, time: v.time },
        'notify.drillScheduled',
      );
    });
  };
}
