import { pagedSchema } from '../../../src/contract/paged';
import {
  drillIdQuerySchema,
  drillListQuerySchema,
  drillReportSchema,
  drillScheduleAnswerSchema,
  drillScheduleRowSchema,
  drillScheduleSchema,
  drillStartSchema,
  drillSummarySchema,
  type DrillScheduleRow,
} from '../../../src/contract/notifyDrill';
import type { RoleKey } from '../../../src/contract/roles';
import { sessionOf, type AppContext } from '../../http/context';
import { localeOf, ok } from '../../http/envelope';
import { answers, fileAnswer, type RoutePlugin } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { startDrill } from '../drill';
import { drillCsv, drillList, drillReport } from '../drillReport';
import { logChange } from './shared';

/** Drills are the administrator's: they call every person of a house, whoever runs it. */
const DRILLS: readonly RoleKey[] = ['administrator'];

/**
 * Alarm drills: start one for a house now, schedule one weekly, list them, and read a drill's
 * report (JSON, or CSV to hand on). The sending is the alarm dispatcher's (server/notify/drill.ts).
 */
export function drillRoutes(ctx: AppContext): RoutePlugin {
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
    app.post(
      '/notify/drill/start',
      {
        schema: {
          summary:
            'Starts an alarm drill for a house now: a test alarm to every person it would call',
          body: drillStartSchema,
          response: answers(drillSummarySchema),
        },
        config: { roles: DRILLS, operating: true },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const { houseId } = request.body;
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
      },
    );

    app.get(
      '/notify/drill/list',
      {
        schema: {
          summary: 'The alarm drills run, newest first, with how many people confirmed',
          querystring: drillListQuerySchema,
          response: answers(pagedSchema(drillSummarySchema)),
        },
        config: { roles: DRILLS },
      },
      async (request, reply) => {
        const q = request.query;
        const rows = await drillList(database.query, q.houseId);
        return ok(request, reply, { rows, total: rows.length });
      },
    );

    app.get(
      '/notify/drill/report',
      {
        schema: {
          summary: "An alarm drill's report: who got it by which channel, when, and who confirmed",
          querystring: drillIdQuerySchema,
          response: answers(drillReportSchema),
        },
        config: { roles: DRILLS },
      },
      async (request, reply) => {
        const { id } = request.query;
        const report = await drillReport(database.query, id);
        if (!report) throw new Refusal('notFound', 'http.notFound');
        return ok(request, reply, report);
      },
    );

    app.get(
      '/notify/drill/report.csv',
      {
        schema: {
          summary: "An alarm drill's report as a CSV file, in your language",
          querystring: drillIdQuerySchema,
          response: fileAnswer(['text/csv'], "The drill's report, one row per person and channel"),
        },
        config: { roles: DRILLS },
      },
      async (request, reply) => {
        const { id } = request.query;
        const report = await drillReport(database.query, id);
        if (!report) throw new Refusal('notFound', 'http.notFound');
        return reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="alarm-drill-${id}.csv"`)
          .send(drillCsv(report, localeOf(request) === 'zh' ? 'zh' : 'en'));
      },
    );

    app.get(
      '/notify/drill/schedules',
      {
        schema: {
          summary: 'The weekly alarm drills scheduled, one per house at most',
          response: answers(pagedSchema(drillScheduleRowSchema)),
        },
        config: { roles: DRILLS },
      },
      async (request, reply) => {
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
      },
    );

    app.post(
      '/notify/drill/schedule',
      {
        schema: {
          summary: "Schedules a house's weekly alarm drill, or removes it (weekday null)",
          body: drillScheduleSchema,
          response: answers(drillScheduleAnswerSchema),
        },
        config: { roles: DRILLS, operating: true },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const v = request.body;
        const house = await houseOf(v.houseId);
        if (v.weekday === null)
          await database.query('delete from notify_drill_schedules where house_id = $1', [
            house.id,
          ]);
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
      },
    );
  };
}
