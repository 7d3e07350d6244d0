import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

const RIGHT = 'Roost12345';

describe.each(testDatabaseTargets())(
  'the sign-in throttle is no lockout lever on $name',
  (target) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(target);
    }, 180_000);
    afterAll(() => t?.close());

    const login = async (username: string, password: string, address: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username, password },
          remoteAddress: address,
        })
      ).statusCode;
    const wrong = async (username: string, address: string, times: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < times; i += 1)
        statuses.push(await login(username, 'wrong-pass', address));
      return statuses;
    };

    it("an attacker's failures do not lock the user out from another address", async () => {
      expect(await wrong('admin', '10.9.0.1', 6)).toEqual([401, 401, 401, 401, 401, 429]);
      // The attacker's address stays held back, even with the right password…
      expect(await login('admin', RIGHT, '10.9.0.1')).toBe(429);
      // …but the user, from elsewhere, signs in.
      expect(await login('admin', RIGHT, '10.9.0.2')).toBe(200);
    });

    it("5 failures from a farm's shared address do not lock out the others behind it", async () => {
      expect(await login('area', RIGHT, '10.9.1.1')).toBe(200);
      expect(await wrong('farm', '10.9.1.1', 5)).toEqual([401, 401, 401, 401, 401]);
      expect(await login('area', RIGHT, '10.9.1.1')).toBe(200);
      expect(await login('company', RIGHT, '10.9.1.1')).toBe(200);
    });

    it('one address spraying many user names is stopped after 50 failures', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 51; i += 1)
        statuses.push(await login(`spray${i}`, 'wrong-pass', '10.9.2.1'));
      expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
      expect(statuses[50]).toBe(429);
    });

    it('an account takes at most 100 evaluated failures an hour from strangers; a known address still signs in', async () => {
      // The user's own address, known from an earlier sign-in.
      expect(await login('shack', RIGHT, '10.9.3.250')).toBe(200);
      let evaluated = 0;
      for (let a = 0; a < 25; a += 1)
        for (const s of await wrong('shack', `10.9.4.${a}`, 5)) if (s === 401) evaluated += 1;
      expect(evaluated).toBe(100);
      // Failure 101 from a stranger is not evaluated, not even the right password.
      expect(await login('shack', 'wrong-pass', '10.9.5.1')).toBe(429);
      expect(await login('shack', RIGHT, '10.9.5.2')).toBe(429);
      // The user at its known address is not locked out.
      expect(await login('shack', RIGHT, '10.9.3.250')).toBe(200);
    });
  },
);
