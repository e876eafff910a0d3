/**
 * The dashboard signed in with a restricted key, in Chromium (docs/api.md#restricted-keys): the navigation shows only
 * what the key may read, the pages offer no action it may not take, and a hidden action's form posted by hand (with
 * the session's CSRF token) gets the API's refusal; the API keys page makes a restricted key through its permission
 * table with the keyboard alone, and offers a restricted session no level above its own. axe-core finds nothing
 * serious on any of these pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { assertAxeClean, signedIn } from '../helpers/dashboard-browser.ts';
import { money } from '../helpers/money.ts';
import { call, useServer } from '../helpers/server.ts';

describe('the dashboard with a restricted key', { skip: skipWithoutChromium('the restricted dashboard test') }, () => {
  const server = useServer();
  let browser: Browser;
  let admin: string;
  let account: string;
  let hold: string;
  const restricted = async (permissions: Record<string, string>) => {
    const made = await call(server.url, 'POST', '/v1/api_keys', { key: admin, json: { permissions } });
    assert.equal(made.status, 200, made.text);
    return made.body.key as string;
  };

  before(async () => {
    admin = await server.key('dash-restricted');
    const m = money(server.url, admin);
    const [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 10_000);
    const pending = { from_account_id: a, to_account_id: b, amount: 500, currency: 'USD', pending: true };
    hold = (await m.post('/v1/fintech/transfers', pending)).id;
    account = a;
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test('a read-only key: the nav lacks what it may not read, no action is offered, a forged one is refused', async () => {
    const key = await restricted({ accounts: 'read', transfers: 'read', transactions: 'read', events: 'read' });
    const page = await signedIn(browser, server.url, key, 1280);
    const nav = await page.locator('nav[aria-label=Main] a').allInnerTexts();
    assert.deepEqual(nav, ['Home', 'Accounts', 'Transfers', 'Events', 'Audit']);
    assert.match(await page.locator('main').innerText(), /Accounts[\s\S]*Balances by currency[\s\S]*Latest events/);
    assert.doesNotMatch(await page.locator('main').innerText(), /Webhook endpoints/);
    await assertAxeClean(page, 'home, read-only');

    await page.goto(`${server.url}/dashboard/accounts/${account}`);
    assert.match(await page.locator('main').innerText(), /Transactions[\s\S]*100\.00 USD/);
    assert.equal(await page.locator('main form[method=post]').count(), 0, 'no freeze, close or deposit form');
    assert.equal(await page.locator('a', { hasText: 'Send money' }).count(), 0);
    await assertAxeClean(page, 'account, read-only');
    await page.goto(`${server.url}/dashboard/transfers/${hold}`);
    assert.equal(await page.locator('main form[method=post]').count(), 0, 'no post or void form');
    await page.goto(`${server.url}/dashboard/transfers`);
    assert.equal(await page.locator('a', { hasText: 'Make a transfer' }).count(), 0);

    // The freeze form the page hid, made by hand in the page with the session's CSRF token: the server refuses it.
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.evaluate((action) => {
        const d = (globalThis as any).document;
        const form = d.createElement('form');
        form.method = 'post';
        form.action = action;
        const csrf = d.querySelector('input[name=csrf]').value;
        for (const [name, value] of [
          ['csrf', csrf],
          ['reason', 'other'],
        ]) {
          const field = Object.assign(d.createElement('input'), { type: 'hidden', name, value });
          form.append(field);
        }
        d.body.append(form);
        form.submit();
      }, `/dashboard/accounts/${account}/freeze`),
    ]);
    assert.equal(response?.status(), 403);
    const refusal = await page.locator('main').innerText();
    assert.match(
      refusal,
      /This key has accounts: read; POST \/v1\/fintech\/accounts\/\{id\}\/freeze needs accounts: write/,
    );
    assert.match(refusal, /permission_denied/);
    await assertAxeClean(page, 'the refusal');
    const still = await call(server.url, 'GET', `/v1/fintech/accounts/${account}`, { key: admin });
    assert.equal(still.body.status, 'active', 'the account was not frozen');

    const requests = await page.goto(`${server.url}/dashboard/requests`);
    assert.equal(requests?.status(), 403, 'a page it may not read, typed in');
  });

  test('the permission table makes a restricted key with the keyboard alone', async () => {
    const page = await signedIn(browser, server.url, admin, 1280);
    await page.goto(`${server.url}/dashboard/api-keys`);
    await assertAxeClean(page, 'API keys, full session');
    await page.focus('#f-name');
    await page.keyboard.type('Reporting');
    await tabTo(page, 'input[name=access][value=full]');
    await page.keyboard.press('ArrowDown'); // the radio group's next choice: restricted
    await tabTo(page, 'input[name="permissions.accounts"][value=none]');
    await page.keyboard.press('ArrowRight'); // none → read
    await tabTo(page, 'input[name="permissions.transactions"][value=none]');
    await page.keyboard.press('ArrowRight');
    await tabTo(page, 'main form button.primary');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#secret-value');
    const minted = await page.locator('#secret-value').innerText();
    assert.match(minted, /^rk_test_[0-9A-Za-z]{38}$/);
    const read = await call(server.url, 'GET', `/v1/fintech/accounts/${account}/balances`, { key: minted });
    assert.equal(read.status, 200, read.text);
    const json = { from_account_id: account, to_account_id: account, amount: 1, currency: 'USD' };
    const move = await call(server.url, 'POST', '/v1/fintech/transfers', { key: minted, json });
    assert.equal(move.status, 403);
    assert.equal(move.body.code, 'permission_denied');

    await page.goto(`${server.url}/dashboard/api-keys`);
    const row = await page.locator('tr', { hasText: 'Reporting' }).innerText();
    assert.match(row, /accounts: read\s*transactions: read/);
    assert.doesNotMatch(row, /transfers|Revoke\b.*Revoke/);
    assert.match(await page.locator('tr', { hasText: 'this session' }).innerText(), /full access/);
  });

  test('a restricted session is offered only levels within its own key', async () => {
    const key = await restricted({ api_keys: 'write', accounts: 'read' });
    const page = await signedIn(browser, server.url, key, 1280);
    await page.goto(`${server.url}/dashboard/api-keys`);
    const levels = async (group: string) =>
      page.locator(`input[name="permissions.${group}"]`).evaluateAll((radios) => radios.map((r: any) => r.value));
    assert.deepEqual(await levels('accounts'), ['none', 'read']);
    assert.deepEqual(await levels('api_keys'), ['none', 'read', 'write']);
    assert.deepEqual(await levels('transfers'), ['none']);
    assert.equal(await page.locator('input[name=access][value=full]').count(), 0, 'no full key offered');
    await assertAxeClean(page, 'API keys, restricted session');
  });
});

/** Presses Tab until the element `selector` names has the focus (at most 40 times). */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if (await page.locator(selector).evaluate((el) => el === (globalThis as any).document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${selector}`);
}
