import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { assertAxeCleanWithoutScripts } from '../helpers/no-script.ts';
import { useServer } from '../helpers/server.ts';

describe('/docs and /docs/errors with JavaScript off', { skip: skipWithoutChromium('the no-script docs test') }, () => {
  const server = useServer();
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  /** A page with scripts disabled, recording every request that leaves this server. */
  async function noScript(path: string): Promise<{ page: Page; foreign: string[] }> {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol !== 'data:' && url.origin !== server.url) foreign.push(request.url());
    });
    await page.goto(`${server.url}${path}`);
    return { page, foreign };
  }

  test('the reference reads without script: operations, their fields and an example, nothing fetched elsewhere', async () => {
    const { page, foreign } = await noScript('/docs');
    for (const heading of ['Create an account', 'Void a pending transfer', 'Delete a webhook endpoint'])
      assert.ok(await page.locator('h2', { hasText: heading }).first().isVisible(), `the heading ${heading}`);
    const text = await page.locator('body').innerText();
    for (const expected of ['legal_name', 'available_balance', 'Request samples', '"country": "US"'])
      assert.ok(text.includes(expected), `the page shows ${expected}`);
    assert.deepEqual(foreign, [], 'every asset is served by Plinth itself');
    await assertAxeCleanWithoutScripts(browser, `${server.url}/docs`, 'the API reference');
  });

  test('the error catalogue has contents linking to each entry, and a link back to the reference', async () => {
    const { page, foreign } = await noScript('/docs/errors');
    const contents = page.locator('nav[aria-labelledby=contents]');
    assert.ok(await contents.isVisible());
    await contents.getByRole('link', { name: 'country_unsupported' }).click();
    assert.ok(page.url().endsWith('/docs/errors#country_unsupported'));
    assert.match(await page.locator('#country_unsupported h2').innerText(), /country_unsupported — 400/);
    await page.getByRole('link', { name: '← The API reference' }).click();
    assert.equal(new URL(page.url()).pathname, '/docs');
    assert.deepEqual(foreign, []);
    await assertAxeCleanWithoutScripts(browser, `${server.url}/docs/errors`, 'the error catalogue');
  });
});
