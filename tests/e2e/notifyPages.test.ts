import { mkdirSync } from 'node:fs';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySteps } from '../../server/alarms/lifecycle';
import { SEVERITY } from '../../server/alarms/rules';
import { AlarmService } from '../../server/alarms/service';
import { ackLinkSecret } from '../../server/notify/ackLink';
import { signDrillToken } from '../../server/notify/drill';
import {
  LIVE_WAIT,
  demoHouse,
  launchBrowser,
  openPage,
  startServer,
  type TestServer,
} from './harness';

const SHOTS = process.env.NOTIFY_SHOTS_DIR ?? '/work/shots/notify';
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
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

const houseOf = (name: string) => demoHouse(server, name);

async function entry(house: { id: number; farm_id: number }, phone: string, alarmType = 'message') {
  const [row] = await server.roost.database.query<{ id: number }>(
    `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type, repeat_minutes,
       closable, alarm_type, delay_minutes, status, notice_types)
     values ($1, $2, $3, '00:00', '00:00', 'daily', 10, true, $4, 0, 'open', '["block","device","network"]')
     returning id`,
    [house.farm_id, house.id, phone, alarmType],
  );
  return row!.id;
}

const open = (user: string, path: string, language: 'en' | 'zh', viewport = WIDE) =>
  openPage(browser, server, user, path, { language, viewport, errors: pageErrors });

/** The page in both languages and both sizes, into the screenshot folder. */
async function shots(user: string, path: string, testId: string, name: string) {
  for (const language of ['en', 'zh'] as const)
    for (const [size, viewport] of [
      ['1440', WIDE],
      ['390', PHONE],
    ] as const) {
      const page = await open(user, path, language, viewport);
      await page.getByTestId(testId).waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${SHOTS}/${name}-${size}-${language}.png`, fullPage: true });
      await page.context().close();
    }
}

const logged = async (fn: string) =>
  (
    await server.roost.database.query<{ n: number }>(
      `select count(*)::int as n from operation_logs where function = $1`,
      [fn],
    )
  )[0]!.n;

describe('the notification pages', () => {
  it('creates a silence for a house, marks the alarm it holds, and ends it early', async () => {
    const house = await houseOf('House 2');
    await entry(house, '13800000201');
    const page = await open('farm', '/alarm/silences', 'en');
    await page.getByTestId('silences-page').waitFor();
    await page.locator('#silence-place').selectOption(`house:${house.id}`);
    await page.locator('#silence-reason').fill('Changing the fans');
    await page.locator('#silence-hours').selectOption('8');
    await page.getByTestId('silence-create').click();
    const row = page.getByTestId('silence-list').locator('tr', { hasText: 'Changing the fans' });
    await row.waitFor();
    expect(await row.textContent()).toContain('House 2');
    expect(await row.getByTestId('silence-state').textContent()).toBe('Active');
    expect(await logged('notify.silence.create')).toBe(1);

    // An alarm of the house is raised: stored and listed, its notification held and marked.
    const service = new AlarmService(server.roost.database, server.roost.events);
    await service.change(({ db }) =>
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
    const list = await open('farm', '/alarm/list', 'en');
    await expect
      .poll(
        async () => {
          await list.reload();
          await list.locator('tr[data-state="active"]', { hasText: 'House 2' }).first().waitFor();
          return list.getByTestId('alarm-silenced').count();
        },
        { timeout: 30_000, interval: 2_000 },
      )
      .toBeGreaterThan(0);
    await list.screenshot({ path: `${SHOTS}/alarm-list-silenced-1440-en.png` });

    // The tag shows as soon as the silence covers the alarm; the held count follows once the
    // dispatcher's next round (every 5 s) has held the notification.
    await expect
      .poll(
        async () => {
          await page.reload();
          await row.waitFor();
          return row.textContent();
        },
        { timeout: 30_000, interval: 2_000 },
      )
      .toMatch(/Active.*1/);
    await shots('farm', '/alarm/silences', 'silence-list', 'silences');
    await row.getByRole('button', { name: 'End now' }).click();
    // Ended ones leave the current list; with "show all" it is there, ended by the farm manager.
    await row.waitFor({ state: 'detached' });
    await page.getByLabel('Show ended and expired ones').check({ force: true });
    await row.waitFor();
    expect(await row.getByTestId('silence-state').textContent()).toBe('Ended');
    expect(await logged('notify.silence.end')).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it('runs a drill from the drills page and reports who did not confirm, exportable as CSV', async () => {
    const house = await houseOf('House 1');
    const first = await entry(house, '13800000301');
    await entry(house, '13800000302', 'phoneAndMessage');
    const page = await open('admin', '/alarm/drills', 'en');
    await page.getByTestId('drills-page').waitFor();
    await page.locator('#drill-house').selectOption(String(house.id));
    await page.getByTestId('drill-start').click();
    const drillRow = page.getByTestId('drill-list').locator('tr', { hasText: 'House 1' });
    await drillRow.waitFor();
    expect(await drillRow.textContent()).toContain('0 / 2');
    const [drill] = await server.roost.database.query<{ id: number }>(
      'select id from notify_drills order by id desc limit 1',
    );
    // The dispatcher's round tries it; no provider or webhook is set here, so nothing is sent.
    await expect
      .poll(
        async () =>
          (
            await server.roost.database.query<{ n: number }>(
              `select count(*)::int as n from notify_drill_receipts
               where drill_id = $1 and tries > 0 and sent_at is null`,
              [drill!.id],
            )
          )[0]!.n,
        LIVE_WAIT,
      )
      .toBe(3);

    // The first person confirms on their phone through the link the message carried.
    const secret = await ackLinkSecret(server.roost.database);
    const token = signDrillToken(secret, drill!.id, first, new Date(Date.now() + 3_600_000));
    const phoneContext = await browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    const phone = await phoneContext.newPage();
    await phone.goto(`${server.url}/ack/${token}`);
    await phone.getByTestId('ack-drill').waitFor();
    await phone.screenshot({ path: `${SHOTS}/drill-ack-390-en.png` });
    await phone.getByRole('button', { name: 'Confirm I received it' }).tap();
    await phone.getByTestId('ack-done').waitFor();
    await phone.screenshot({ path: `${SHOTS}/drill-ack-390-en-done.png` });
    await phoneContext.close();

    await page.reload();
    // Nobody is left to wait for: one confirmed, the other reached by nothing.
    await page.getByTestId(`drill-${drill!.id}-not-delivered`).waitFor();
    expect(await drillRow.textContent()).toContain('1 / 2');
    expect(await page.getByTestId(`drill-${drill!.id}-not-delivered`).textContent()).toBe(
      '1 not delivered · Ended',
    );
    await drillRow.getByRole('button', { name: 'Report' }).click();
    await page.getByTestId('drill-report').waitFor();
    expect(page.url()).toContain(`drill=${drill!.id}`);
    const unconfirmed = page.getByTestId('drill-unconfirmed');
    await unconfirmed.waitFor();
    expect(await unconfirmed.textContent()).toContain('13800000302');
    expect(await unconfirmed.textContent()).not.toContain('13800000301');
    const receipts = page.getByTestId('drill-receipts');
    expect(await receipts.locator('tbody tr').count()).toBe(3);
    const confirmedRow = receipts.locator('tr', { hasText: '13800000301' });
    // Not "Sent": the message reached nobody, and the report says why, then the confirmation.
    expect(await confirmedRow.textContent()).toMatch(
      /Not delivered: no SMS\/voice provider or webhook is set.*\(\+\d+(\.\d)? s\)/,
    );
    expect(
      await receipts.locator('tr', { hasText: '13800000302' }).first().textContent(),
    ).toContain('Not delivered: no SMS/voice provider or webhook is set');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('drill-csv').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`alarm-drill-${drill!.id}.csv`);
    await shots('admin', `/alarm/drills?drill=${drill!.id}`, 'drill-receipts', 'drill-report');
    await shots('admin', '/alarm/drills', 'drill-list', 'drills');
    expect(pageErrors).toEqual([]);
  });

  it('sets escalation levels and the user’s own preferences', async () => {
    const house = await houseOf('House 3');
    const low = await entry(house, '13800000401');
    await entry(house, '13800000402');
    const page = await open('farm', '/alarm/escalation', 'en');
    const second = page.getByTestId('escalation-list').locator('tr', { hasText: '13800000402' });
    await second.waitFor();
    await second.getByLabel('Level').selectOption('1');
    const firstRow = page.getByTestId(`escalation-${low}`);
    await expect.poll(() => firstRow.textContent()).toContain('after 10 min: level 1 is called');
    expect(await logged('notify.escalation.save')).toBe(1);
    await shots('farm', '/alarm/escalation', 'escalation-list', 'escalation');

    await server.roost.database.query(
      `update users set mobile = '13800000401' where username = 'farm'`,
    );
    const prefs = await open('farm', '/alarm/preferences', 'en');
    await prefs.getByTestId('prefs-intro').waitFor();
    expect(await prefs.getByTestId('prefs-intro').textContent()).toContain('Entries with it: 1.');
    await prefs.getByText('Minor', { exact: true }).click();
    await prefs.getByLabel('Use quiet hours').check({ force: true });
    // The quiet hours read as the console's 24-hour clock (a native time input says 10:00 PM
    // in an English browser), and take a time typed without its colon.
    expect(await prefs.locator('#quiet-from').inputValue()).toBe('22:00');
    await prefs.locator('#quiet-from').fill('2230');
    await prefs.locator('#quiet-from').blur();
    expect(await prefs.locator('#quiet-from').inputValue()).toBe('22:30');
    await prefs.getByTestId('prefs-save').click();
    await expect
      .poll(
        async () =>
          (
            await server.roost.database.query<{ severities: string[]; quiet_start: string | null }>(
              `select p.severities, p.quiet_start from notify_prefs p join users u on u.id = p.user_id
             where u.username = 'farm'`,
            )
          )[0],
      )
      .toEqual({ severities: ['critical', 'major'], quiet_start: '22:30' });
    await shots('farm', '/alarm/preferences', 'prefs-page', 'prefs');
    expect(pageErrors).toEqual([]);
  });
});
