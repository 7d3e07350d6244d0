import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminListStore } from '../../src/stores/AdminListStore';
import { fetchTo, storesOn } from './realServer';

const envelope = (data: unknown) => ({ success: true, code: 200, msg: 'OK', data });
const row = (name: string) => ({ id: 1, name });

/** A list whose answer to keyword "slow" comes late, after the next search's. */
const app = Fastify({ logger: false });
app.get('/api/log/list', async (request) => {
  const { keyword } = request.query as { keyword?: string };
  if (keyword === 'slow') await new Promise((resolve) => setTimeout(resolve, 300));
  return envelope({ rows: [row(keyword ?? 'all')], total: 1 });
});

describe('a paged list', () => {
  let stores: ReturnType<typeof storesOn>['stores'];
  beforeAll(async () => {
    stores = storesOn(await fetchTo(app)).stores;
  });
  afterAll(() => app.close());

  it('shows the answer to the latest search, not one that came late', async () => {
    const list = new AdminListStore(stores.api, '/log/list', { keyword: '' });
    list.setFilter('keyword', 'slow');
    const first = list.load(1);
    list.setFilter('keyword', 'fast');
    await Promise.all([first, list.load(1)]);
    expect(list.rows).toEqual([row('fast')]);
  });
});
