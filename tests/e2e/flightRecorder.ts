import { type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * What each page of the running test did: navigations, errors, failed or slow API calls and
 * every API write. A browser test that fails under load on CI, and only there, is then explained
 * by its own output (tests/setup/e2eFlightRecorder.ts prints it for a failed test) instead of
 * needing a rerun that may pass.
 */
const MAX_LINES = 200;
/** A read slower than this is worth seeing; writes are always listed. */
const SLOW_MS = 2_000;

let lines: string[] = [];
let startedAt = Date.now();
let pages = 0;

function note(label: string, text: string): void {
  lines.push(`${String(Date.now() - startedAt).padStart(6)} ms ${label} ${text}`);
  if (lines.length > MAX_LINES) lines = lines.slice(-MAX_LINES);
}

function watchPage(page: Page): void {
  pages += 1;
  const label = `[page ${pages}]`;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(label, `at ${new URL(frame.url()).pathname}`);
  });
  page.on('pageerror', (error) => note(label, `page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      note(label, `console ${message.type()}: ${message.text().slice(0, 300)}`);
  });
  page.on('requestfailed', (request) =>
    note(label, `failed ${request.method()} ${request.url()}: ${request.failure()?.errorText}`),
  );
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/')) return;
    const timing = request.timing();
    const ms = Math.round(timing.responseEnd);
    const write = request.method() !== 'GET';
    // The response is known by now; asking for it fails only once the page has closed.
    void request.response().then(
      (response) => {
        const status = response?.status() ?? 0;
        if (write || status >= 400 || ms > SLOW_MS)
          note(label, `${request.method()} ${url.pathname}${url.search} → ${status} in ${ms} ms`);
      },
      () => undefined,
    );
  });
}

function watchContext(context: BrowserContext): void {
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
}

/** Records every page of every context `browser` opens from now on. */
export function recordBrowser(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    watchContext(context);
    return context;
  };
  return browser;
}

/** Starts a test's record afresh. */
export function startRecord(): void {
  lines = [];
  startedAt = Date.now();
}

/** The test's record so far (oldest first). */
export function record(): readonly string[] {
  return lines;
}

/** A step of the test worth seeing beside what the pages did. */
export function noteStep(text: string): void {
  note('[test]', text);
}
