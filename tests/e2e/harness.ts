import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { readConfig } from '../../server/config';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { startRoost, type RunningRoost } from '../../server/roost';
import { recordBrowser } from './flightRecorder';

/**
 * How long a browser test waits for a live change to show on the page. Generous on purpose: the
 * tests assert that the change arrives without a reload; how fast it arrives is measured by
 * `npm run bench` (publish → socket, publish → alarm badge), where a loaded machine cannot fail CI.
 */
export const LIVE_WAIT = { timeout: 30_000, interval: 100 } as const;

export interface TestServer {
  url: string;
  roost: RunningRoost;
  stop(): Promise<void>;
}

/**
 * A real Roost server serving the built console (dist/) on a free port, with the demo data on a
 * fresh in-memory PGlite, captcha off and no broker. `env` overrides any variable.
 */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    MQTT_PORT: '0',
    ROOST_DEMO: '1',
    // The demo's past only where a test is about it (env can turn it on).
    ROOST_DEMO_HISTORY: 'off',
    ROOST_CAPTCHA: 'off',
    ROOST_CHECK_ANSWERS: 'on',
    LOG_LEVEL: 'silent',
    ...env,
  });
  // E2E_DIST_DIR lets parallel work build and test its own copy of the console.
  const roost = await startRoost(
    process.env.E2E_DIST_DIR
      ? { ...config, staticDir: path.resolve(process.env.E2E_DIST_DIR) }
      : config,
  );
  return { url: roost.url, roost, stop: () => roost.close() };
}

/**
 * Debian's Chromium, headless, with the flags below (WebGL through SwiftShader). What its pages
 * do is recorded and printed when a test fails (./flightRecorder.ts).
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
    ],
  });
  return recordBrowser(browser);
}

/**
 * Signs in through the login form and waits until the console has left /login: the address
 * changes first, but the router renders the next page in a transition, so the sign-in page (with
 * its own language switch) stays on screen a moment longer; the wait ends once it is gone.
 */
export async function signIn(
  page: Page,
  url: string,
  username: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  if (!page.url().includes('/login')) await page.goto(`${url}/login`);
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('input[name="code"]').fill('any');
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.getByTestId('login-page').waitFor({ state: 'detached' });
}

/** A new browser context in one language (the `language` cookie), signed in as `username`. */
export async function openSignedIn(
  browser: Browser,
  url: string,
  username: string,
  options: {
    language?: 'en' | 'zh';
    viewport?: { width: number; height: number };
    password?: string;
  } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1440, height: 900 },
    locale: 'en-US',
  });
  const host = new URL(url).hostname;
  await context.addCookies([
    { name: 'language', value: options.language ?? 'en', domain: host, path: '/' },
  ]);
  const page = await context.newPage();
  await signIn(page, url, username, options.password);
  return { context, page };
}

/**
 * Answers the console's "Save the changes?" (src/console/useConfirmSave.tsx) with Save, after a
 * test clicked a form's save button, and waits until the question has gone.
 */
export async function confirmSave(page: Page): Promise<void> {
  const question = page.locator('.roost-confirm-save');
  await question.waitFor();
  await page.evaluate(watchQuestion);
  await question.locator('.bp6-alert-footer .bp6-intent-primary').click();
  try {
    await question.waitFor({ state: 'detached' });
  } catch (error) {
    const seen = await page.evaluate(questionState).catch((e: Error) => e.message);
    throw new Error(`${(error as Error).message}\nWhat the question went through:\n${seen}`);
  }
}

/**
 * Runs in the page: notes each click that reaches the save question and each change of its
 * transition classes, so that a question that stays open says whether the click arrived and
 * how far its closing got.
 */
function watchQuestion(): void {
  const w = window as unknown as { roostQuestionLog?: string[]; roostQuestionStop?: () => void };
  // A page asks several times: the watch of the question before goes first.
  w.roostQuestionStop?.();
  const log: string[] = (w.roostQuestionLog = []);
  const at = () => `${Math.round(performance.now())} ms`;
  const dialog = document.querySelector('.roost-confirm-save');
  const container = dialog?.closest('.bp6-overlay-content') ?? dialog;
  if (!container) return;
  const noteEvent = (e: Event) =>
    log.push(`${at()} ${e.type} on ${(e.target as Element).outerHTML.slice(0, 80)}`);
  const types = ['pointerdown', 'click'];
  for (const type of types) document.addEventListener(type, noteEvent, { capture: true });
  const classes = new MutationObserver(() => log.push(`${at()} classes ${container.className}`));
  classes.observe(container, { attributes: true, attributeFilter: ['class'] });
  w.roostQuestionStop = () => {
    for (const type of types) document.removeEventListener(type, noteEvent, { capture: true });
    classes.disconnect();
  };
  log.push(`${at()} open, classes ${container.className}`);
}

function questionState(): string {
  const w = window as unknown as { roostQuestionLog?: string[] };
  const now = `${Math.round(performance.now())} ms`;
  const questions = [...document.querySelectorAll('.roost-confirm-save')].map(
    (q) =>
      q.closest('.bp6-overlay')?.className + ' > ' + q.closest('.bp6-overlay-content')?.className,
  );
  return [...(w.roostQuestionLog ?? []), `${now} now: ${questions.join(' | ')}`].join('\n');
}

/**
 * A signed-in page at `path`, in one language and size; the page's uncaught errors go into
 * `errors`, which a test expects to stay empty.
 */
export async function openPage(
  browser: Browser,
  server: TestServer,
  user: string,
  path: string,
  options: {
    language: 'en' | 'zh';
    viewport?: { width: number; height: number };
    errors: string[];
  },
): Promise<Page> {
  const { page } = await openSignedIn(browser, server.url, user, options);
  page.on('pageerror', (e) => options.errors.push(e.message));
  await page.goto(`${server.url}${path}`);
  return page;
}

/** A demo house of the Weifang farm (or `farm`) by name: its id and its farm's id. */
export async function demoHouse(
  server: TestServer,
  name: string,
  farm = 'Weifang Broiler Farm',
): Promise<{ id: number; farm_id: number }> {
  const [house] = await server.roost.database.query<{ id: number; farm_id: number }>(
    `select h.id, h.farm_id from houses h join farms f on f.id = h.farm_id
     where f.name = $1 and h.name = $2`,
    [farm, name],
  );
  if (!house) throw new Error(`no house ${name} in ${farm}`);
  return house;
}
