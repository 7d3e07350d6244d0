import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FarmNode, HouseRow } from '../../src/contract/admin';
import { TAKEN_LIMIT } from '../../server/admin/probes';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call, signInAll } from '../admin/client';

type Page<T> = { rows: T[]; total: number };

function find(nodes: FarmNode[], name: string): FarmNode | undefined {
  for (const n of nodes) {
    if (n.name === name) return n;
    const inner = find(n.children, name);
    if (inner) return inner;
  }
  return undefined;
}

/*
 * Network ids and login names are unique everywhere, so "taken" answers for a name the caller
 * cannot see too. What stops that answer from becoming a way to list other farms' gateways is
 * the budget: after TAKEN_LIMIT "taken" answers every further try is refused before it is tried.
 */
describe.each(testDatabaseTargets())('names taken outside the scope on $name', (target) => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof signInAll>>;
  let own: HouseRow;
  let foreign: HouseRow[];

  beforeAll(async () => {
    t = await createTestApp(target);
    tokens = await signInAll(t);
    const tree = (await call<FarmNode[]>(t, tokens.admin, 'GET', '/farm/tree')).data;
    const houses = async (farm: string) =>
      (
        await call<Page<HouseRow>>(
          t,
          tokens.admin,
          'GET',
          `/house/listByFarm?farmId=${find(tree, farm)!.id}&pageSize=100`,
        )
      ).data.rows.filter((h) => h.gateway);
    own = (await houses('Weifang Broiler Farm'))[0]!;
    foreign = await houses('Qingyuan Layer Farm');
  }, 180_000);
  afterAll(() => t?.close());

  const rename = (token: string, networkId: string, locale = 'en') =>
    call(
      t,
      token,
      'POST',
      '/gateway/save',
      {
        id: own.gateway!.id,
        houseId: own.id,
        networkId,
        typeKey: own.gateway!.typeKey,
        version: own.gateway!.version,
        simCard: own.gateway!.simCard,
      },
      locale,
    );

  it('answers a network id outside the scope like one inside, and stops answering after the limit', async () => {
    // The company manager of North China cannot see Qingyuan (South China) ...
    const listed = await call(
      t,
      tokens.company,
      'GET',
      `/house/listByFarm?farmId=${foreign[0]!.farmId}`,
    );
    expect(listed.status).not.toBe(200);
    // ... yet its network ids are taken: the same answer as for a name of its own farm.
    const inside = await rename(tokens.company, (await siblingId())!);
    expect(inside).toMatchObject({ status: 409, msg: 'This network id is taken.' });
    let asked = 1;
    for (const house of foreign) {
      if (asked >= TAKEN_LIMIT) break;
      const res = await rename(tokens.company, house.gateway!.networkId);
      expect(res).toMatchObject({ status: 409, msg: 'This network id is taken.' });
      asked += 1;
    }
    while (asked < TAKEN_LIMIT) {
      expect((await rename(tokens.company, foreign[0]!.gateway!.networkId)).status).toBe(409);
      asked += 1;
    }
    // Over the budget: a taken id and a free one get the same refusal, in the user's language.
    const taken = await rename(tokens.company, foreign[0]!.gateway!.networkId);
    const free = await rename(tokens.company, 'FREE-ID-0001', 'zh');
    expect(taken).toMatchObject({
      status: 429,
      msg: expect.stringMatching(/Try again in an hour/),
    });
    expect(free).toMatchObject({ status: 429, msg: '尝试了过多已被占用的名称，请一小时后再试。' });
    // The gateway kept its id, and someone else's budget is untouched.
    const after = await call<Page<HouseRow>>(
      t,
      tokens.admin,
      'GET',
      `/house/listByFarm?farmId=${own.farmId}&pageSize=100`,
    );
    expect(after.data.rows.find((h) => h.id === own.id)!.gateway!.networkId).toBe(
      own.gateway!.networkId,
    );
    expect((await rename(tokens.admin, foreign[0]!.gateway!.networkId)).status).toBe(409);
  });

  async function siblingId(): Promise<string | undefined> {
    const rows = (
      await call<Page<HouseRow>>(
        t,
        tokens.admin,
        'GET',
        `/house/listByFarm?farmId=${own.farmId}&pageSize=100`,
      )
    ).data.rows;
    return rows.find((h) => h.gateway && h.id !== own.id)?.gateway!.networkId;
  }
});
