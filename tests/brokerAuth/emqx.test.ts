import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/tokens';
import { gateways } from '../../server/db/schema';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

const SECRET = 'emqx-shared-secret-0123456789';
const TOKEN = 'a-gateway-device-token';

/**
 * EMQX's HTTP authenticator and authorizer, played as EMQX calls them (POST, JSON bodies from
 * the README's templates, the shared secret as a bearer token): a gateway is admitted with its
 * current token only, to its own topics only, and strangers are left to EMQX's next source.
 */
describe.each(testDatabaseTargets())('EMQX asks Roost about gateways, $name', (target) => {
  let t: TestApp;
  let networkId: string;
  let gatewayId: number;
  let admin: string;

  const ask = (path: string, body: unknown, secret = SECRET) =>
    t.app.inject({
      method: 'POST',
      url: `/broker/emqx/${path}`,
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const authn = async (username: string, password: string) => {
    const res = await ask('authn', { clientid: username, username, password });
    expect(res.statusCode).toBe(200);
    return res.json<{ result: string; is_superuser: boolean }>();
  };
  const authz = async (username: string, action: string, topic: string) => {
    const res = await ask('authz', { clientid: username, username, action, topic });
    expect(res.statusCode).toBe(200);
    return res.json<{ result: string }>().result;
  };

  beforeAll(async () => {
    t = await createTestApp(target, { ROOST_EMQX_SECRET: SECRET });
    const [gw] = await t.database.db
      .update(gateways)
      .set({ tokenHash: hashToken(TOKEN) })
      .where(eq(gateways.id, 1))
      .returning();
    networkId = gw!.networkId;
    gatewayId = gw!.id;
    admin = await t.signIn('admin');
  }, 120_000);
  afterAll(async () => t?.close());

  it('admits a gateway with its token, never as a superuser, and denies a wrong token', async () => {
    expect(await authn(networkId, TOKEN)).toEqual({ result: 'allow', is_superuser: false });
    expect(await authn(networkId, 'not-its-token')).toEqual({
      result: 'deny',
      is_superuser: false,
    });
  });

  it('leaves a user name that is no gateway to EMQX’s next source', async () => {
    expect((await authn('roost', 'whatever')).result).toBe('ignore');
    expect(await authz('roost', 'subscribe', '$share/roost/roost/v1/+/telemetry')).toBe('ignore');
  });

  it('lets a gateway publish its own topics and subscribe to its own commands only', async () => {
    expect(await authz(networkId, 'publish', `roost/v1/${networkId}/telemetry`)).toBe('allow');
    expect(await authz(networkId, 'publish', `roost/v1/${networkId}/config/set`)).toBe('deny');
    expect(await authz(networkId, 'publish', `roost/v1/other-gateway/telemetry`)).toBe('deny');
    expect(await authz(networkId, 'subscribe', `roost/v1/${networkId}/config/set`)).toBe('allow');
    expect(await authz(networkId, 'subscribe', `roost/v1/${networkId}/#`)).toBe('deny');
    expect(await authz(networkId, 'subscribe', `roost/v1/${networkId}/telemetry`)).toBe('deny');
  });

  it('refuses the old token once the console gave the gateway a new one', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/gateway/rotateToken',
      headers: { authorization: admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ id: gatewayId }),
    });
    expect(res.statusCode).toBe(200);
    const fresh = res.json<{ data: { token: string } }>().data.token;
    expect((await authn(networkId, TOKEN)).result).toBe('deny');
    expect((await authn(networkId, fresh)).result).toBe('allow');
  });

  it('answers only EMQX’s secret, and bad bodies with a 400', async () => {
    const wrong = await ask(
      'authn',
      { username: networkId, password: TOKEN },
      'not-the-secret-at-all',
    );
    expect(wrong.statusCode).toBe(401);
    const bad = await ask('authz', { username: networkId, action: 'fly', topic: 'x' });
    expect(bad.statusCode).toBe(400);
  });

  it('does not exist without a secret', async () => {
    const bare = await createTestApp(target);
    try {
      const res = await bare.app.inject({
        method: 'POST',
        url: '/broker/emqx/authn',
        headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ username: networkId, password: TOKEN }),
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
