import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  answers,
  zodSerializerCompiler,
  zodValidatorCompiler,
  type ZodProvider,
} from '../../server/http/routeSchema';

/** A bare Fastify with the route-schema compilers and one route that may drift from its answer. */
async function appWith(check: boolean, drifts: string[]) {
  const app = Fastify({ logger: false }).withTypeProvider<ZodProvider>();
  app.setValidatorCompiler(zodValidatorCompiler('default'));
  app.setSerializerCompiler(zodSerializerCompiler(check, (_url, issue) => drifts.push(issue)));
  app.get(
    '/count',
    {
      schema: {
        querystring: z.object({ n: z.coerce.number().int().min(1), drift: z.string().optional() }),
        response: answers(z.object({ doubled: z.number() })),
      },
    },
    async (request) => ({
      success: true as const,
      code: 200 as const,
      msg: 'ok',
      // A server drifting from its contract: a number sent as text.
      data: {
        doubled: (request.query.drift
          ? String(request.query.n * 2)
          : request.query.n * 2) as number,
      },
    }),
  );
  await app.ready();
  return app;
}

describe('routes that declare their schemas', () => {
  it('hand the handler parsed input and refuse bad input with 400 before it runs', async () => {
    const app = await appWith(true, []);
    const good = await app.inject({ method: 'GET', url: '/count?n=21' });
    expect(good.statusCode).toBe(200);
    expect(good.json().data).toEqual({ doubled: 42 });
    const bad = await app.inject({ method: 'GET', url: '/count?n=zero' });
    expect(bad.statusCode).toBe(400);
    const control = await app.inject({ method: 'GET', url: '/count?n=2&drift=a%00b' });
    expect(control.statusCode).toBe(400);
    await app.close();
  });

  it('fail an answer that drifted from its schema where answers are checked, and name it', async () => {
    const drifts: string[] = [];
    const app = await appWith(true, drifts);
    const res = await app.inject({ method: 'GET', url: '/count?n=21&drift=1' });
    expect(res.statusCode).toBe(500);
    expect(drifts).toEqual([expect.stringMatching(/^data\.doubled: /)]);
    await app.close();
  });

  it('send answers unchecked in production', async () => {
    const drifts: string[] = [];
    const app = await appWith(false, drifts);
    const res = await app.inject({ method: 'GET', url: '/count?n=21&drift=1' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ doubled: '42' });
    expect(drifts).toEqual([]);
    await app.close();
  });
});
