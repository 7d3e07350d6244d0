import { asc, eq } from 'drizzle-orm';
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
import { notifyDrillSchedules } from '../../db/notifySchema';
import { farms, houses } from '../../db/schema';
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
  const { db } = database;

  const houseOf = async (houseId: number) => {
    const [house] = await db
      .select({ id: houses.id, name: houses.name, farmId: houses.farmId })
      .from(houses)
      .where(eq(houses.id, houseId));
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
          { farmId: house.farmId, houseId },
          user.realName || user.username,
          false,
          new Date(),
        );
        if (id === null) throw new Refusal('conflict', 'notify.drillNobody');
        await logChange(database, request, 'notify.drill.start', `#${id}`, {
          id: house.id,
          name: house.name,
        });
        const report = await drillReport(db, id);
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
        const rows = await drillList(db, q.houseId);
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
        const report = await drillReport(db, id);
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
        const report = await drillReport(db, id);
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
        const s = notifyDrillSchedules;
        const rows = await db
          .select({
            houseId: s.houseId,
            houseName: houses.name,
            farmId: s.farmId,
            farmName: farms.name,
            weekday: s.weekday,
            time: s.time,
            createdBy: s.createdBy,
            lastRunAt: s.lastRunAt,
          })
          .from(s)
          .innerJoin(houses, eq(houses.id, s.houseId))
          .innerJoin(farms, eq(farms.id, s.farmId))
          .orderBy(asc(farms.name), asc(houses.name));
        const out: DrillScheduleRow[] = rows.map((r) => ({
          ...r,
          lastRunAt: r.lastRunAt === null ? null : r.lastRunAt.toISOString(),
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
        const s = notifyDrillSchedules;
        if (v.weekday === null) await db.delete(s).where(eq(s.houseId, house.id));
        else {
          const createdBy = user.realName || user.username;
          await db
            .insert(s)
            .values({
              houseId: house.id,
              farmId: house.farmId,
              weekday: v.weekday,
              time: v.time,
              createdBy,
            })
            .onConflictDoUpdate({
              target: s.houseId,
              set: { weekday: v.weekday, time: v.time, createdBy },
            });
        }
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
