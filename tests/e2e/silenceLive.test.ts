import { mkdirSync } from 'node:fs';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySteps } from '../../server/alarms/lifecycle';
import { SEVERITY } from '../../server/alarms/rules';
import { AlarmService } from '../../server/alarms/service';
import {
  LIVE_WAIT,
  demoHouse,
  launchBrowser,
  openPage,
  startServer,
  type TestServer,
} from './harness';

const SHOTS = process.env.NOTIFY_SHOTS_DIR ?? '/work/shots/notify';
let server: TestServer;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([startServer({ ROOST_SIMULATOR: 'off' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const open = (user: string, path: string, language: 'en' | 'zh') =>
  openPage(browser, server, user, path, { language, errors: pageErrors });

describe('the Silenced tag on open consoles', () => {
  it('comes and goes with the silence on two consoles without a reload', async () => {
    const house = await demoHouse(server, 'House 3');
    const service = new AlarmService(server.roost.database, server.roost.events);
    const [raised] = await service.change(({ db }) =>
      applySteps(db, { houseId: house.id, farmId: house.farm_id }, [
        {
          kind: 'raise',
          cause: 'temperatureHigh',
          subject: 'temperature',
          severity: SEVERITY.temperatureHigh,
          value: 35,
          limit: 32,
          text: null,
          at: Date.now(),
        },
      ]),
    );
    const alarmId = raised!.alarm.id;

    // Two consoles on the alarm list: the administrator in English, the farm manager in Chinese;
    // a third, the farm manager's, makes and ends the silences.
    const admin = await open('admin', '/alarm/list', 'en');
    const farm = await open('farm', '/alarm/list', 'zh');
    const rows = [admin, farm].map((p) => p.getByTestId(`alarm-${alarmId}`));
    for (const row of rows) await row.waitFor();
    for (const row of rows) expect(await row.getByTestId('alarm-silenced').count()).toBe(0);
    // The house's card on its house manager's overview: in Chinese at 1440, and in English on a
    // phone, where the alarm's text is longer than the card. Its alarm line says when the alarm
    // reaches nobody, and that part is never cut off.
    const overview = await open('shack', '/shack/status/overview', 'zh');
    const phone = await openPage(browser, server, 'shack', '/shack/status/overview', {
      language: 'en',
      viewport: { width: 390, height: 844 },
      errors: pageErrors,
    });
    const cardOf = (page: typeof overview) =>
      page.locator(`[data-testid="house-card"][data-house-id="${house.id}"]`);
    const card = cardOf(overview);
    const silencedOf = (page: typeof overview) =>
      cardOf(page).locator('[data-testid="card-alarm"][data-silenced="true"]');
    const cardSilenced = silencedOf(overview);
    for (const page of [overview, phone])
      await cardOf(page).getByTestId('card-alarm').filter({ hasText: /\S/ }).waitFor(LIVE_WAIT);
    expect(await cardSilenced.count()).toBe(0);

    // The administrator's silences page, open meanwhile, lists it too.
    const adminSilences = await open('admin', '/alarm/silences', 'en');
    await adminSilences.getByTestId('silences-page').waitFor();
    const listed = (reason: string) =>
      adminSilences.getByTestId('silence-list').locator('tr', { hasText: reason });
    const silences = await open('farm', '/alarm/silences', 'en');
    await silences.getByTestId('silences-page').waitFor();
    const create = async (reason: string) => {
      await silences.locator('#silence-place').selectOption(`house:${house.id}`);
      await silences.locator('#silence-reason').fill(reason);
      await silences.locator('#silence-hours').selectOption('8');
      await silences.getByTestId('silence-create').click();
      await silences.getByTestId('silence-list').locator('tr', { hasText: reason }).waitFor();
    };
    await create('Changing the fans');
    for (const row of rows) await row.getByTestId('alarm-silenced').waitFor(LIVE_WAIT);
    await listed('Changing the fans').waitFor(LIVE_WAIT);
    await cardSilenced.waitFor(LIVE_WAIT);
    expect(await cardSilenced.textContent()).toContain('已静默');
    await card.screenshot({ path: `${SHOTS}/house-card-silenced-zh.png` });
    await silencedOf(phone).waitFor(LIVE_WAIT);
    const mark = silencedOf(phone).locator('.roost-house-card__alarm-state');
    expect(await mark.textContent()).toContain('Silenced');
    const [markBox, lineBox] = await Promise.all([
      mark.boundingBox(),
      silencedOf(phone).boundingBox(),
    ]);
    expect(markBox!.x + markBox!.width).toBeLessThanOrEqual(lineBox!.x + lineBox!.width + 0.5);
    await cardOf(phone).screenshot({ path: `${SHOTS}/house-card-silenced-en-390.png` });
    await admin.screenshot({ path: `${SHOTS}/alarm-list-silenced-live-1440-en.png` });
    await farm.screenshot({ path: `${SHOTS}/alarm-list-silenced-live-1440-zh.png` });

    // Ended early on the third console: gone from both.
    await silences
      .getByTestId('silence-list')
      .locator('tr', { hasText: 'Changing the fans' })
      .getByRole('button', { name: 'End now' })
      .click();
    for (const row of rows)
      await row.getByTestId('alarm-silenced').waitFor({ state: 'detached', ...LIVE_WAIT });
    await listed('Changing the fans').waitFor({ state: 'detached', ...LIVE_WAIT });
    await cardSilenced.waitFor({ state: 'detached', ...LIVE_WAIT });

    // Made again, and left to run out: gone from both when it ends, nobody touching it.
    await create('Vaccination');
    for (const row of rows) await row.getByTestId('alarm-silenced').waitFor(LIVE_WAIT);
    await listed('Vaccination').waitFor(LIVE_WAIT);
    await cardSilenced.waitFor(LIVE_WAIT);
    await server.roost.database.query(
      `update notify_silences set ends_at = now() + interval '1 second' where ended_at is null`,
    );
    for (const row of rows)
      await row.getByTestId('alarm-silenced').waitFor({ state: 'detached', ...LIVE_WAIT });
    await listed('Vaccination').waitFor({ state: 'detached', ...LIVE_WAIT });
    await cardSilenced.waitFor({ state: 'detached', ...LIVE_WAIT });
    expect(pageErrors).toEqual([]);
  });
});
