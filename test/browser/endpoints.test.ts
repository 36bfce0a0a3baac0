// A real browser on the demo application (the repository root, built with `svc build`):
// Swagger UI renders the demo's operations from local files only, and the dashboard
// renders. Screenshots go to test/artifacts/ for a human to look at.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from '../support/project.ts';
import { serve, svcOk, type Served } from '../endpoints/support.ts';
import { ErrorPages } from '../../runtime/errors/pages.ts';
import { logWriter } from '../../runtime/shoebox/log.ts';

const CHROMIUM = '/usr/bin/chromium';
const missing = existsSync(CHROMIUM) ? false : `Chromium is not installed at ${CHROMIUM}: install Debian's chromium (apt-get install chromium, as .ci/run does) to run the browser tests`;
const artifacts = join(repoRoot, 'test', 'artifacts');

describe('built-in pages in a real browser', { skip: missing }, () => {
  let browser: Browser;
  let served: Served;
  let faviconLinesAtStart: number;
  before(async () => {
    svcOk(repoRoot, 'build');
    faviconLinesAtStart = await faviconLines();
    served = await serve(repoRoot);
    await mkdir(artifacts, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  after(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('renders the demo’s operations with Swagger UI, loading nothing from another host', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(served.url)) foreign.push(request.url());
    });
    const failed = failedResponses(page);
    await page.goto(`${served.url}/svc/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    const paths = await page.locator('.opblock .opblock-summary-path').allInnerTexts();
    const shown = paths.map((path) => path.replace(/\u200b/g, '').trim());
    for (const expected of ['/api/users', '/api/users/{id}', '/api/hello/{name}', '/api/echo']) {
      assert.ok(shown.includes(expected), `${expected} not among ${shown.join(', ')}`);
    }
    assert.deepEqual(foreign, []);
    assert.deepEqual(failed, []);
    await page.screenshot({ path: join(artifacts, 'docs.png'), fullPage: true });
    await page.close();
  });

  it('renders the dashboard', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const failed = failedResponses(page);
    const response = await page.goto(`${served.url}/svc/dashboard`);
    assert.equal(response?.status(), 200);
    assert.equal(await page.locator('h1').innerText(), 'Dashboard');
    assert.equal(await page.locator('.card').count(), 6);
    assert.ok((await page.locator('tbody tr').count()) > 0);
    await page.screenshot({ path: join(artifacts, 'dashboard.png'), fullPage: true });
    await page.goto(`${served.url}/svc/dashboard?page=guide`);
    assert.equal(await page.locator('article h1').innerText(), 'svc user guide');
    await page.locator('article a[href="#built-in-endpoints"]').first().click();
    assert.ok(await page.locator('#built-in-endpoints').isVisible());
    await page.screenshot({ path: join(artifacts, 'guide.png') });
    await page.locator('article a[href="?page=knots"]').first().click();
    assert.match(await page.locator('article h1').innerText(), /knots/i);
    assert.deepEqual(failed, []);
    await page.close();
  });

  it('fits a phone’s width: the demo’s pages, its 404 for a long path, and svc’s error page with a long stack', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 700 } });
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    for (const path of ['/', `/no/such/${'a'.repeat(300)}`]) {
      await page.goto(`${served.url}${path}`);
      assert.equal(await overflow(), 0, path);
    }
    // The page `svc tread` shows for a 500: the stack in a <pre> that scrolls inside its card, not the page.
    const pages = await ErrorPages.load(join(repoRoot, 'test', '.tmp', 'no-such-app'), logWriter(join(repoRoot, 'test', '.tmp', 'no-such-app')));
    const stack = `Error: boom\n    at ${'veryLongFrameName'.repeat(20)} (file:///${'deep/'.repeat(30)}handler.ts:1:1)`;
    await page.setContent(pages.render({ status: 500, title: 'Internal Server Error', detail: 'boom', requestId: 'id', stack }));
    assert.equal(await overflow(), 0, 'error page with a stack');
    await page.screenshot({ path: join(artifacts, 'error-500-stack-375.png') });
    await page.close();
  });

  // Last: the browser asks an origin for its icon once, after the first page has loaded.
  it('gives the browser an icon on every page, the demo’s home page included, so that no visit logs a 404 for /favicon.ico', async () => {
    const page = await browser.newPage();
    for (const path of ['/', '/svc/dashboard', '/svc/docs', '/no/such/page']) await page.goto(`${served.url}${path}`);
    await page.waitForTimeout(500); // the browser asks for its icon after the page has loaded
    await page.close();
    await new Promise((resolve) => setTimeout(resolve, 100)); // the log's write
    assert.equal(await faviconLines(), faviconLinesAtStart);
  });
});

async function faviconLines(): Promise<number> {
  const log = await readFile(join(repoRoot, 'shoebox', 'logs', 'svc.log'), 'utf8').catch(() => '');
  return log.split('\n').filter((line) => line.includes('/favicon.ico')).length;
}

/** URLs the page asked for and got an error status for (each one a line in svc.log). */
function failedResponses(page: Page): string[] {
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  return failed;
}
