import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { addDays } from '../../server/production/kpi';
import { localDay } from '../../server/production/records';
import { confirmSave, launchBrowser, openSignedIn, startServer, type TestServer } from './harness';

let server: TestServer;
let browser: Browser;
let house2: number;
let previousPlaced: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ ROOST_SIMULATOR: 'off', ROOST_TIMEZONE: 'UTC' }),
    launchBrowser(),
  ]);
  const db = server.roost.database;
  await db.query(`update users set can_operate = false where username = 'area'`);
  // The demo's own vaccinations would crowd the panel's first rows; these tests bring their own.
  await db.query(`delete from immune_reminders`);
  // Two tasks fall due today for House 2's open flock: its breed gets them at the flock's age.
  const today = localDay(new Date(), 'UTC');
  const [flock] = await db.query<{ houseId: number }>(
    `with f as (select f.* from flocks f join houses h on h.id = f.house_id
                join farms fa on fa.id = h.farm_id
                where h.name = 'House 2' and fa.name = 'Weifang Broiler Farm' and f.closed_on is null)
     insert into immune_reminders (breed_id, age_day, content)
     select breed_id, ($1::date - placed_on) + age_at_placement, c
     from f, unnest(array['Test vaccine A', 'Test vaccine B']) c
     returning (select house_id from f) as "houseId"`,
    [today],
  );
  house2 = Number(flock!.houseId);

  // House 2's previous flock (weighed on days 1 and 3) and its open one (weighed on days 1 and 2).
  previousPlaced = addDays(today, -80);
  const [old] = await db.query<{ id: number }>(
    `insert into flocks (house_id, breed_id, placed_on, closed_on, age_at_placement, head_count)
     select house_id, breed_id, $2, $3, 1, head_count from flocks where house_id = $1 limit 1
     returning id`,
    [house2, previousPlaced, addDays(today, -40)],
  );
  const [open] = await db.query<{ id: number; placed: string }>(
    `select id, placed_on::text as placed from flocks where house_id = $1 and closed_on is null`,
    [house2],
  );
  const weigh = (flockId: number, day: string, grams: number) =>
    db.query(
      `insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg, body_weight_g)
       values ($1, $2, 2, 1, 0, 0, 400, $3)`,
      [flockId, day, grams],
    );
  await weigh(old!.id, previousPlaced, 41);
  await weigh(old!.id, addDays(previousPlaced, 2), 77);
  await weigh(open!.id, open!.placed, 43);
  await weigh(open!.id, addDays(open!.placed, 1), 58);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const decisions = () =>
  server.roost.database.query<{ content: string; state: string; note: string }>(
    `select content, state, note from flock_tasks order by content`,
  );

describe("The day's flock tasks in the reminders", () => {
  it('are marked done on the home page and skipped with a note on the house monitor', async () => {
    const { page } = await openSignedIn(browser, server.url, 'farm');
    await page.goto(`${server.url}/dashboard`);
    const tasks = page.getByTestId('reminders-task');
    // Houses 8 and Gaocheng's 6 have flocks of the same age: each flock has its own task.
    const taskA = tasks
      .getByTestId('reminder')
      .filter({ hasText: 'Weifang Broiler Farm · House 2' })
      .filter({ hasText: 'Test vaccine A' });
    await taskA.waitFor();
    await taskA.getByRole('button', { name: 'Done', exact: true }).click();
    await taskA.getByRole('textbox', { name: 'Note' }).fill('Batch 2231, all houses');
    await taskA.getByRole('button', { name: 'Mark done' }).click();
    await page.locator('.bp6-toast', { hasText: 'Task saved' }).waitFor();
    await taskA.waitFor({ state: 'detached' });
    await tasks.getByText('Weifang Broiler Farm · House 8').first().waitFor();
    expect(await decisions()).toEqual([
      { content: 'Test vaccine A', state: 'done', note: 'Batch 2231, all houses' },
    ]);

    await page.goto(`${server.url}/shack/status/monitor?houseId=${house2}`);
    const taskB = page
      .getByTestId('reminders-task')
      .getByTestId('reminder')
      .filter({ hasText: 'Test vaccine B' });
    await taskB.waitFor();
    // Task A is done: the monitor no longer lists it.
    expect(await page.getByTestId('reminder').filter({ hasText: 'Test vaccine A' }).count()).toBe(
      0,
    );
    await taskB.getByRole('button', { name: 'Skip', exact: true }).click();
    // Cancel leaves the task as it was.
    await taskB.getByRole('button', { name: 'Cancel' }).click();
    await taskB.getByRole('button', { name: 'Skip', exact: true }).click();
    await taskB.getByRole('textbox', { name: 'Note' }).fill('Vaccine not delivered');
    await taskB.getByRole('textbox', { name: 'Note' }).press('Enter');
    await taskB.waitFor({ state: 'detached' });
    expect(await decisions()).toEqual([
      { content: 'Test vaccine A', state: 'done', note: 'Batch 2231, all houses' },
      { content: 'Test vaccine B', state: 'skipped', note: 'Vaccine not delivered' },
    ]);
  });

  it('a user without the operation permission sees the tasks but no buttons', async () => {
    await server.roost.database.query(`delete from flock_tasks`);
    const { page } = await openSignedIn(browser, server.url, 'area', { language: 'zh' });
    await page.goto(`${server.url}/dashboard`);
    const task = page
      .getByTestId('reminder')
      .filter({ hasText: 'Weifang Broiler Farm · House 2' })
      .filter({ hasText: 'Test vaccine A' });
    await task.waitFor();
    expect(await task.getByRole('button').count()).toBe(0);
  });
});

describe('A flock compared by day of age', () => {
  it("draws the house's previous flock and the farm's other houses beside the breed standard", async () => {
    const { page } = await openSignedIn(browser, server.url, 'farm');
    await page.goto(`${server.url}/production/flocks`);
    await page.getByTestId('kpi-cards').waitFor();
    await page.locator('#flocks-house').selectOption({ label: 'Weifang Broiler Farm · House 2' });
    const compare = page.getByTestId('flock-compare');
    const table = compare.getByTestId('compare-table');
    // Day 1 of both flocks side by side, with the standard; day 2 of the old flock is missing.
    await expect.poll(() => table.locator('thead').innerText()).toContain(previousPlaced);
    const day1 = await table.locator('tr[data-age="1"] td').allInnerTexts();
    expect(day1.slice(0, 3)).toEqual(['1', '43', '41']);
    expect(Number(day1[3])).toBeGreaterThan(0);
    expect((await table.locator('tr[data-age="2"] td').allInnerTexts()).slice(1, 3)).toEqual([
      '58',
      '—',
    ]);
    const lines = compare.getByTestId('compare-chart').locator('[data-testid="chart-line"]');
    await expect.poll(() => lines.count()).toBe(3);
    expect(await compare.locator('[data-series="standard"]').count()).toBe(1);

    await page.locator('#compare-with').selectOption('farm');
    await expect.poll(() => table.locator('thead').innerText()).toContain('House 3 ·');
    expect(await table.locator('thead').innerText()).not.toContain(previousPlaced);
    // Another figure: mortality has no standard line.
    await page.locator('#compare-series').selectOption('mortalityPct');
    await expect.poll(() => compare.locator('[data-series="standard"]').count()).toBe(0);

    // The flock's KPIs as a spreadsheet, made by the server.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export XLSX' }).click(),
    ]);
    const workbook = new ExcelJS.Workbook();
    const file = await readFile((await download.path())!);
    await workbook.xlsx.load(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Day');
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(sheet.getRow(2).getCell(header.indexOf('Body weight (g)') + 1).value).toBe(43);
  });
});

describe('The electricity tariff page', () => {
  it('a company manager sets peak, flat and valley hours and prices; the power page bills by them', async () => {
    const { page } = await openSignedIn(browser, server.url, 'company');
    await page.goto(`${server.url}/production/tariff`);
    await page.getByTestId('tariff-unset').waitFor();
    // An emptied price is refused with the product's words before anything is sent.
    await page.locator('#price-peak').fill('');
    await page.getByTestId('save-tariff').click();
    await page.locator('.bp6-toast', { hasText: 'Value to send must not be empty' }).waitFor();
    expect(await page.locator('#price-peak').getAttribute('aria-invalid')).toBe('true');

    await page.locator('#price-peak').fill('1.2');
    await page.locator('#price-flat').fill('0.7');
    await page.locator('#price-valley').fill('0.3');
    for (let h = 0; h < 7; h++) await page.locator(`#hour-${h}`).selectOption('valley');
    for (const h of [8, 9, 10]) await page.locator(`#hour-${h}`).selectOption('peak');
    await page.getByTestId('save-tariff').click();
    // The console's one question before a save: nothing is stored until it is answered.
    expect(await server.roost.database.query('select 1 from tariffs')).toEqual([]);
    await confirmSave(page);
    await page.locator('.bp6-toast', { hasText: 'Tariff saved' }).waitFor();
    const [row] = await server.roost.database.query<{ hours: unknown; prices: unknown }>(
      `select t.hours, t.prices from tariffs t join organizations o on o.id = t.org_id`,
    );
    const json = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);
    expect(json(row!.prices)).toEqual({ peak: 1.2, flat: 0.7, valley: 0.3 });
    expect((json(row!.hours) as string[]).slice(0, 12)).toEqual([
      ...Array.from({ length: 7 }, () => 'valley'),
      'flat',
      'peak',
      'peak',
      'peak',
      'flat',
    ]);
    // Read back after a reload.
    await page.reload();
    await expect.poll(() => page.locator('#hour-9').inputValue()).toBe('peak');
    expect(await page.getByTestId('tariff-unset').count()).toBe(0);

    await page.goto(`${server.url}/production/power`);
    await page.getByTestId('power-month').waitFor();
    // Nothing metered (no simulator here): no cost to show, but not "no tariff".
    expect(await page.getByTestId('power-cost').innerText()).not.toContain('No tariff set');
  });

  it('a farm manager has no tariff page; the hourly chart names its unit on the value axis', async () => {
    // Three metered hours of today for a house of the farm manager's farm.
    await server.roost.database.query(
      `insert into telemetry_hourly (house_id, bucket, readings, power_sum, power_n)
       select h.id, date_trunc('day', now()) + make_interval(hours => k), 60, 20 + k, 60
       from houses h join farms f on f.id = h.farm_id, generate_series(0, 2) k
       where f.name = 'Weifang Broiler Farm' and h.name = 'House 2'
       on conflict (house_id, bucket) do update set power_sum = excluded.power_sum, power_n = excluded.power_n`,
    );
    const { page } = await openSignedIn(browser, server.url, 'farm');
    await page.goto(`${server.url}/production/power`);
    await page.getByTestId('power-month').waitFor();
    expect(await page.getByRole('link', { name: 'Electricity Tariff' }).count()).toBe(0);
    const hourly = page.getByTestId('power-hourly');
    await expect.poll(() => hourly.getByTestId('chart-unit').textContent()).toBe('kWh');
  });
});
