import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PowerStore } from '../../src/stores/PowerStore';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { fetchTo, holdingFirst, storesOn } from './realServer';

/** A page's reads that cross on a loaded machine: what shows is what was chosen last. */
describe.each(testDatabaseTargets())('answers that cross on $name', (target) => {
  let t: TestApp;
  let fetch: typeof globalThis.fetch;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(target);
    fetch = await fetchTo(t.app);
    token = await t.signIn('admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the power page shows the day chosen last when the day before answers after it', async () => {
    const crossing = holdingFirst(fetch, '/production/power?');
    const s = storesOn(crossing.fetch, token);
    const power = new PowerStore(s.stores.api, '2026-11-20');
    // The page's first read (the first farm, that day) is held; the user picks another day.
    const opening = power.loadPlaces();
    await expect.poll(() => crossing.asked()).toBe(1);
    await power.choose(power.target, '2026-11-21');
    crossing.release();
    await opening;
    expect(power.power?.day).toBe('2026-11-21');
    expect(power.month?.month).toBe('2026-11');
    expect(s.errors).toEqual([]);
  });
});
