/**
 * The dashboard on a phone, in Chromium (issue 30): at 390 px every list page reads without sideways scrolling,
 * no cell is cut off at the screen's edge, no id is broken into a column of characters, and a form's error stays on
 * the page. Screenshots go to .tmp/dashboard/<backend>/phone-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { assertAxeClean, layoutFaults, signedIn } from '../helpers/dashboard-browser.ts';
import { money } from '../helpers/money.ts';
import { useServer } from '../helpers/server.ts';

const SHOTS = join(import.meta.dirname, '../../.tmp/dashboard', process.env.PLINTH_TEST_BACKEND ?? 'sqlite');
const PHONE = 390;

describe('the dashboard at 390 px', { skip: skipWithoutChromium('the dashboard phone test') }, () => {
  const server = useServer();
  let browser: Browser;
  let page: Page;
  let endpoint: string;
  let account: string;
  let transfer: string;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const key = await server.key('dash-phone');
    const m = money(server.url, key);
    const named = { type: 'business', country: 'US', nickname: 'Operating account, rather long for a phone' };
    const [a, b] = [(await m.post('/v1/fintech/accounts', named)).id as string, await m.account()];
    account = a;
    await m.deposit(a, 100_000);
    transfer = (await m.transfer(a, b, 2550)).id;
    await m.post(`/v1/fintech/transfers/${transfer}/reversals`, { amount: 50, description: 'Refund: part' });
    await m.post('/v1/fintech/transfers', { from_account_id: a, to_account_id: b, amount: 999, currency: 'USD' });
    const hook = await m.post('/v1/webhook_endpoints', {
      url: 'http://127.0.0.1:9/a/rather/long/path/for/a/phone',
      enabled_events: ['*'],
    });
    endpoint = hook.id;
    await m.post(`/v1/webhook_endpoints/${endpoint}/test`, {});
    await server.app.requestLog.flush();
    browser = await launchChromium();
    page = await signedIn(browser, server.url, key, PHONE);
  });
  after(() => browser?.close());

  async function assertReadable(name: string): Promise<void> {
    await page.screenshot({ path: join(SHOTS, `phone-${name}.png`), fullPage: true });
    const faults = await layoutFaults(page);
    assert.ok(faults.scrollWidth <= PHONE, `${name} scrolls sideways (${faults.scrollWidth} px wide)`);
    assert.deepEqual(faults.cutOff, [], `${name}: cut off at the right edge`);
    assert.deepEqual(faults.brokenIds, [], `${name}: ids broken over lines`);
    await assertAxeClean(page, name);
  }

  const lists = ['', 'accounts', 'transfers', 'requests', 'events', 'webhooks', 'api-keys'];
  for (const list of lists) {
    test(`/dashboard/${list}: every row readable, nothing cut off`, async () => {
      await page.goto(`${server.url}/dashboard/${list}`);
      assert.ok((await page.locator('main tbody tr').count()) > 0 || list === '', `${list} lists something`);
      await assertReadable(list || 'home');
    });
  }

  // Issue 31: an account's balances, statement and nickname; a transfer's reversals; the transfer form's pickers.
  test('an account: balances at a moment, its statement, its nickname', async () => {
    await page.goto(`${server.url}/dashboard/accounts/${account}`);
    assert.match(await page.locator('#statement').innerText(), /Closing balance/);
    await assertReadable('account');
  });

  test('a transfer with a reversal, and its form', async () => {
    await page.goto(`${server.url}/dashboard/transfers/${transfer}`);
    assert.equal(await page.locator('#reversals tbody tr').count(), 1);
    await assertReadable('transfer-reversals');
  });

  test('make a transfer: the pickers', async () => {
    await page.goto(`${server.url}/dashboard/transfers/new`);
    assert.ok((await page.locator('#f-from_account_id option').count()) > 2, 'the open accounts are listed');
    await assertReadable('transfer-new');
  });

  test('an endpoint and its deliveries', async () => {
    await page.goto(`${server.url}/dashboard/webhooks/${endpoint}`);
    await assertReadable('webhook');
  });

  test('a webhook form refused with a long URL: the error stays on the page', async () => {
    await page.goto(`${server.url}/dashboard/webhooks`);
    await page.fill('#f-url', `ftp://example.com/${'averyveryverylongsegment'.repeat(4)}`);
    await page.click('main form button[type=submit].primary');
    assert.ok((await page.locator('#f-url-error').innerText()).length > 0, 'the field shows its error');
    await assertReadable('webhook-refused');
  });
});
