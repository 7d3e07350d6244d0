import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { DEMO_PASSWORD } from '../server/demo/demoFarms';
import { startConsoleServer } from './consoleServer';

/**
 * What a first visit costs on the wire: bytes transferred (as sent, compressed when the
 * browser accepted it) for a cold /login, a cold house overview and house monitor, by kind, and the time to
 * the overview's first house card on a slow rural link (1.6 Mbit/s down, 150 ms RTT, CPU ×4
 * slower). The built console (dist/) from a real server in headless Chromium. Figures only.
 */
export interface PageTransfer {
  page: string;
  scriptKiB: number;
  styleKiB: number;
  otherKiB: number;
  requests: number;
}

export interface TransferBench {
  pages: PageTransfer[];
  slowLinkFirstCardMs: number;
}

const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: 200_000,
  uploadThroughput: 90_000,
};

type Cookies = Awaited<ReturnType<BrowserContext['cookies']>>;

/** A fresh context, so nothing is cached: a first visit, signed in when cookies are given. */
async function coldContext(browser: Browser, cookies: Cookies = []): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies(cookies);
  return context;
}

/**
 * The page's own account of what it fetched (Resource Timing: the body as sent, compressed),
 * read once `ready` shows: Playwright's request events missed the chunks a page loads after
 * its entry (the overview counted as the sign-in page until session 50).
 */
async function measure(
  browser: Browser,
  url: string,
  path: string,
  ready: string,
  cookies?: Cookies,
): Promise<PageTransfer> {
  const context = await coldContext(browser, cookies);
  const page = await context.newPage();
  await page.goto(`${url}${path}`);
  await page.locator(ready).first().waitFor({ timeout: 120_000 });
  await page.waitForLoadState('networkidle');
  const entries = await page.evaluate(() => [
    { type: 'document', bytes: 0 },
    ...performance
      .getEntriesByType('resource')
      .map((e) => e as PerformanceResourceTiming)
      .map((e) => ({
        type:
          e.initiatorType === 'link' && /\.css(\?|$)/.test(e.name)
            ? 'stylesheet'
            : /\.m?js(\?|$)/.test(e.name)
              ? 'script'
              : e.initiatorType,
        bytes: e.encodedBodySize,
      })),
  ]);
  await context.close();
  const kib = (kind: (t: string) => boolean) =>
    Math.round(entries.filter((s) => kind(s.type)).reduce((sum, s) => sum + s.bytes, 0) / 102.4) /
    10;
  return {
    page: path,
    scriptKiB: kib((t) => t === 'script'),
    styleKiB: kib((t) => t === 'stylesheet'),
    otherKiB: kib((t) => t !== 'script' && t !== 'stylesheet'),
    requests: entries.length,
  };
}

/** Signs in once in a context of its own and hands over its cookies (the session). */
async function sessionCookies(browser: Browser, url: string): Promise<Cookies> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/login`);
  await page.locator('input[name="username"]').fill('admin');
  await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
  await page.locator('input[name="code"]').fill('any');
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  const cookies = await context.cookies();
  await context.close();
  return cookies;
}

async function firstCardOnSlowLink(browser: Browser, url: string, cookies: Cookies) {
  const context = await coldContext(browser, cookies);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const started = Date.now();
  await page.goto(`${url}/shack/status/overview`);
  await page.locator('[data-testid="house-card"]').first().waitFor({ timeout: 120_000 });
  const ms = Date.now() - started;
  await context.close();
  return ms;
}

export async function benchTransfer(): Promise<TransferBench> {
  const roost = await startConsoleServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const cookies = await sessionCookies(browser, roost.url);
    const pages = [
      await measure(browser, roost.url, '/login', '[data-testid="login-form"]'),
      await measure(
        browser,
        roost.url,
        '/shack/status/overview',
        '[data-testid="house-card"]',
        cookies,
      ),
      // The house monitor: a house with cameras fetches hls.js only when one is played.
      await measure(
        browser,
        roost.url,
        '/shack/status/monitor',
        '[data-testid="monitor-picker"]',
        cookies,
      ),
    ];
    return { pages, slowLinkFirstCardMs: await firstCardOnSlowLink(browser, roost.url, cookies) };
  } finally {
    await browser.close();
    await roost.close();
  }
}
