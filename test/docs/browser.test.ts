import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { useServer } from '../helpers/server.ts';

describe('the rendered API reference at /docs', { skip: skipWithoutChromium('the /docs browser test') }, () => {
  const server = useServer();
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test('renders offline: the create-account operation and its fields, with no request leaving Plinth', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['blob:', 'data:'].includes(url.protocol) && url.origin !== server.url) foreign.push(request.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/docs`);
    // Redoc renders each operation as an h2 in the main column.
    // "Create an account number" is an operation too: not that one.
    await page
      .locator('h2', { hasText: 'Create an account', hasNotText: 'Create an account number' })
      .waitFor({ timeout: 30_000 });
    if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT });
    const text = await page.locator('body').innerText();
    for (const expected of ['country', 'kyb', 'legal_name', 'available_balance', 'Fintech accounts'])
      assert.ok(text.includes(expected), `the page shows ${expected}`);
    assert.deepEqual(foreign, [], 'every asset is served by Plinth itself');
    assert.deepEqual(errors, []);
    assert.equal(await page.locator('nav.contents').count(), 0, "the no-script contents stay out of Redoc's way");
  });

  test('the error catalogue entry a problem type points at is visible', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/docs/errors#country_unsupported`);
    const entry = page.locator('#country_unsupported');
    assert.ok(await entry.isVisible());
    assert.match(await entry.innerText(), /country_unsupported — 400 Country not supported/);
  });
});
