/**
 * Issue 34's small things, in Chromium: deleting a webhook endpoint and revoking a key ask on a page of their own
 * (JavaScript off), a freeze needs a reason chosen (JavaScript off), the key form offers live keys to live sessions
 * only, and the accounts page's search box and status filter line up. axe-core on every page touched.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { assertAxeClean, signedIn } from '../helpers/dashboard-browser.ts';
import { money } from '../helpers/money.ts';
import { assertAxeCleanWithoutScripts } from '../helpers/no-script.ts';
import { call, useServer } from '../helpers/server.ts';

describe('dashboard confirmations and forms', { skip: skipWithoutChromium('the dashboard confirm test') }, () => {
  const server = useServer();
  let browser: Browser;
  let key: string;
  let plain: BrowserContext;
  let p: Page;

  before(async () => {
    key = await server.key('dash-confirm');
    browser = await launchChromium();
    plain = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    p = await plain.newPage();
    await p.goto(`${server.url}/dashboard/sign-in`);
    await p.fill('#f-key', key);
    await p.click('button[type=submit]');
    await p.waitForURL(`${server.url}/dashboard`);
  });
  after(() => browser?.close());

  test('delete a webhook endpoint, JavaScript off: a confirmation page, then the endpoint is gone', async () => {
    const m = money(server.url, key);
    const hook = await m.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/gone', enabled_events: ['*'] });
    await p.goto(`${server.url}/dashboard/webhooks/${hook.id}`);
    await p.getByRole('link', { name: 'Delete…' }).click();
    assert.equal(await p.locator('h1').innerText(), 'Delete this endpoint?');
    assert.match(await p.locator('main').innerText(), /delivery log/);
    await assertAxeCleanWithoutScripts(browser, p.url(), 'the delete confirmation', plain);
    await p.getByRole('button', { name: 'Delete endpoint' }).click();
    await p.waitForURL(/\/dashboard\/webhooks\?done=deleted$/);
    assert.match(await p.locator('.flash').innerText(), /Endpoint deleted/);
    assert.equal(await p.locator('main').getByText('http://127.0.0.1:9/gone').count(), 0);
    assert.equal((await call(server.url, 'GET', `/v1/webhook_endpoints/${hook.id}`, { key })).status, 404);
    await assertAxeCleanWithoutScripts(browser, p.url(), 'the webhooks list after a delete', plain);
  });

  test('revoke a key, JavaScript off: a confirmation page first, and Cancel changes nothing', async () => {
    const other = await server.key('dash-confirm');
    const id = (await call(server.url, 'GET', '/v1/api_keys', { key: other })).body.data.find((k: { hint: string }) =>
      k.hint.endsWith(other.slice(-4)),
    ).id;
    await p.goto(`${server.url}/dashboard/api-keys`);
    const row = p.locator('tr', { hasText: id });
    await row.getByRole('link', { name: /^Revoke/ }).click();
    assert.equal(await p.locator('h1').innerText(), 'Revoke this key?');
    await assertAxeCleanWithoutScripts(browser, p.url(), 'the revoke confirmation', plain);
    await p.getByRole('link', { name: 'Cancel' }).click();
    assert.equal((await call(server.url, 'GET', '/v1/api_keys', { key: other })).status, 200, 'Cancel revoked nothing');
    await p
      .locator('tr', { hasText: id })
      .getByRole('link', { name: /^Revoke/ })
      .click();
    await p.getByRole('button', { name: 'Revoke key' }).click();
    await p.waitForURL(/done=revoked/);
    assert.match(await p.locator('tr', { hasText: id }).innerText(), /revoked/);
    assert.equal((await call(server.url, 'GET', '/v1/api_keys', { key: other })).status, 401);
  });

  test('freeze, JavaScript off: no reason is chosen for the person; the browser asks for one', async () => {
    const account = await money(server.url, key).account();
    await p.goto(`${server.url}/dashboard/accounts/${account}`);
    const reason = p.locator('form[action$="/freeze"] select[name=reason]');
    assert.equal(await reason.inputValue(), '', 'no reason chosen to begin with');
    assert.equal(await reason.getAttribute('required'), '');
    const before = p.url();
    await p.click('form[action$="/freeze"] button[type=submit]');
    assert.equal(p.url(), before, 'the form was not sent without a reason');
    assert.equal((await call(server.url, 'GET', `/v1/fintech/accounts/${account}`, { key })).body.status, 'active');
    await assertAxeCleanWithoutScripts(browser, p.url(), 'the account page', plain);
    await reason.selectOption('suspected_fraud');
    await p.click('form[action$="/freeze"] button[type=submit]');
    await p.waitForURL(/done=frozen/);
    const frozen = await call(server.url, 'GET', `/v1/fintech/accounts/${account}`, { key });
    assert.equal(frozen.body.status_details.reason, 'suspected_fraud', 'the reason the person chose');
  });

  test('the key form offers live keys only to a live session', async () => {
    const modes = async (page: Page) =>
      page
        .locator('form[action="/dashboard/api-keys"] select[name=mode] option')
        .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    const sandbox = await signedIn(browser, server.url, key, 1280);
    await sandbox.goto(`${server.url}/dashboard/api-keys`);
    assert.deepEqual(await modes(sandbox), ['sandbox']);
    await assertAxeClean(sandbox, 'API keys, sandbox session');
    const live = await signedIn(browser, server.url, await server.key('dash-confirm', 'live'), 1280);
    await live.goto(`${server.url}/dashboard/api-keys`);
    assert.deepEqual(await modes(live), ['sandbox', 'live']);
    await assertAxeClean(live, 'API keys, live session');
  });

  test('the accounts page: the search box and the status filter line up', async () => {
    const page = await signedIn(browser, server.url, key, 1280);
    await page.goto(`${server.url}/dashboard/accounts`);
    const search = await page.locator('#f-q').boundingBox();
    const status = await page.locator('#f-status').boundingBox();
    const button = await page.locator('form.filters button[type=submit]').boundingBox();
    assert.ok(search && status && button);
    assert.ok(Math.abs(search.y - status.y) <= 1, `tops: search ${search.y}, status ${status.y}`);
    const bottom = (b: { y: number; height: number }) => b.y + b.height;
    assert.ok(Math.abs(bottom(search) - bottom(status)) <= 1, `bottoms: ${bottom(search)}, ${bottom(status)}`);
    assert.ok(Math.abs(bottom(search) - bottom(button)) <= 1, `the button's bottom: ${bottom(button)}`);
    await assertAxeClean(page, 'accounts');
  });
});
