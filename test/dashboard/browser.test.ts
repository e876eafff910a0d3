/**
 * The dashboard in real Chromium (docs/dashboard.md#the-dashboard): a developer signs in with a key, sees the org's accounts and none
 * of another org's, opens and funds accounts, moves money, is refused with the API's own detail beside the field,
 * freezes and unfreezes, adds a webhook endpoint and sees its secret once, retries a failed delivery, mints and
 * revokes a key, and signs out; a session whose key is revoked ends. Every page is checked by axe-core (no serious
 * or critical violation), makes no request to any other origin, breaks no CSP rule, and is screenshotted at 1280 and
 * 390 px wide into .tmp/dashboard/<backend>/.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { call, useServer } from '../helpers/server.ts';
import { verified } from '../helpers/webhooks.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = join(import.meta.dirname, '../../.tmp/dashboard', process.env.PLINTH_TEST_BACKEND ?? 'sqlite');

describe('the dashboard in Chromium', { skip: skipWithoutChromium('the dashboard browser test') }, () => {
  // Failed deliveries wait an hour for their scheduled retry: only the dashboard's "Retry now" sends the second one.
  const server = useServer({ WEBHOOK_RETRY_SCHEDULE: '1h,1h' });
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Receiver;
  let key: string;
  let foreignAccount: string;
  const foreign: string[] = [];
  const cspViolations: string[] = [];
  const checked = new Set<string>();

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    receiver = await startReceiver();
    browser = await launchChromium();
    key = await server.key('dash-acme');
    const other = await server.key('dash-other');
    const made = await call(server.url, 'POST', '/v1/fintech/accounts', {
      key: other,
      json: { type: 'business', country: 'US' },
    });
    foreignAccount = made.body.id;
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== server.url) foreign.push(request.url());
    });
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) cspViolations.push(message.text());
    });
    page.on('dialog', (dialog) => dialog.accept());
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
  });

  /** axe-core on the page as it is (injected by the test through the debugger, so the app never serves it), and
   * screenshots at both widths. */
  async function check(name: string): Promise<void> {
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const page = globalThis as any;
      const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
      return result.violations.map((v: { id: string; impact: string; nodes: { target: string[] }[] }) => ({
        id: v.id,
        impact: v.impact,
        targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
      }));
    });
    if (process.env.AXE_DEBUG) console.log(name, JSON.stringify(violations));
    const serious = violations.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, [], `axe-core on ${name} (${page.url()})`);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 });
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
      const scrollWidth = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
      assert.ok(scrollWidth <= width, `${name} at ${width} px scrolls sideways (${scrollWidth} px wide)`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    checked.add(name);
  }

  const go = async (path: string) => {
    const response = await page.goto(server.url + path);
    return response!;
  };
  const text = (selector = 'main') => page.locator(selector).innerText();

  test('sign-in: a wrong key is refused beside the field; the right one opens the overview', async () => {
    await go('/dashboard');
    assert.match(page.url(), /\/dashboard\/sign-in$/, 'without a session, the dashboard asks to sign in');
    await check('sign-in');
    await page.fill('#f-key', 'sk_test_not_a_real_key');
    await page.click('button[type=submit]');
    assert.match(await page.locator('#key-error').innerText(), /not valid/);
    await page.fill('#f-key', key);
    await page.click('button[type=submit]');
    await page.waitForURL(`${server.url}/dashboard`);
    assert.match(await text('header'), /dash-acme[\s\S]*Sandbox/);
    assert.ok(!(await page.content()).includes(key), 'the key is in no page');
    const cookies = await context.cookies();
    assert.equal(cookies.length, 1);
    assert.ok(!cookies[0]!.value.includes(key.slice(8)), 'nor in the cookie');
    assert.deepEqual([cookies[0]!.httpOnly, cookies[0]!.sameSite, cookies[0]!.path], [true, 'Strict', '/dashboard']);
    assert.match(await text(), /no accounts yet/);
    await check('home-empty');
  });

  let accountA: string;
  let accountB: string;

  test('accounts: open one in the form, see only this org’s accounts', async () => {
    await go('/dashboard/accounts');
    await page.selectOption('#f-country', 'US');
    await page.fill('#f-kyb-legal_name', 'Acme Corp');
    await page.fill('#f-kyb-ein', '12-3456789');
    await page.fill('#f-metadata', 'customer_id=4522\nregion = north');
    await page.click('#create button[type=submit]');
    await page.waitForURL(/\/dashboard\/accounts\/acct_/);
    accountA = page.url().split('/').at(-1)!.split('?')[0]!;
    assert.match(await text(), /Account opened[\s\S]*Acme Corp · EIN ending 6789/);
    assert.ok(!(await page.content()).includes('12-3456789'), 'the full EIN is in no page');
    const made = await call(server.url, 'POST', '/v1/fintech/accounts', {
      key,
      json: { type: 'business', country: 'US' },
    });
    accountB = made.body.id;
    await go('/dashboard/accounts');
    const list = await text();
    assert.ok(list.includes(accountA) && list.includes(accountB), 'both of the org’s accounts are listed');
    assert.ok(!list.includes(foreignAccount), 'another org’s account is not');
    await check('accounts');
    await page.fill('#f-q', 'customer_id=4522');
    await page.click('form[role=search] button');
    await page.waitForURL(/metadata%5Bcustomer_id%5D=4522/);
    const found = await text();
    assert.ok(found.includes(accountA) && !found.includes(accountB), 'the metadata search finds the one account');
    await check('accounts-metadata');
    await go(`/dashboard/accounts/${foreignAccount}`);
    assert.match(await text(), /Nothing here[\s\S]*No such account/, 'and cannot be opened by its id');
    await check('not-found');
  });

  test('sandbox money and a transfer, in major units; a refusal shows the API’s detail beside the field', async () => {
    await go(`/dashboard/accounts/${accountA}`);
    await page.fill('form[action$="/deposit"] input[name=amount]', '100.00');
    await page.click('form[action$="/deposit"] button[type=submit]');
    await page.waitForURL(/done=deposited/);
    assert.match(await text(), /100\.00 USD/);
    await go(`/dashboard/transfers/new?from_account_id=${accountA}`);
    await page.selectOption('#f-to_account_id', accountB);
    await page.fill('#f-amount', '25.50');
    await page.fill('#f-description', 'Invoice 114');
    await check('transfer-new');
    await page.click('main button[type=submit]');
    await page.waitForURL(/\/dashboard\/transfers\/tr_/);
    assert.match(await text(), /25\.50 USD[\s\S]*posted[\s\S]*Invoice 114/);
    await check('transfer');
    await go(`/dashboard/accounts/${accountA}`);
    assert.match(await text(), /74\.50 USD[\s\S]*−25\.50 USD[\s\S]*74\.50 USD/, 'the running balance');
    await check('account');
    await go(`/dashboard/accounts/${accountB}`);
    await page.fill('form[action$="/withdraw"] input[name=amount]', '1000.00');
    await page.click('form[action$="/withdraw"] button[type=submit]');
    // The API names no field for insufficient_funds (its param is the account): the problem heads the form.
    const refusal = await text('form[action$="/withdraw"] .problem');
    assert.match(refusal, /insufficient_funds/, refusal);
    // The API's own detail says what is available, in the form's unit (issue 40): not "2550 USD (minor units)".
    assert.match(refusal, /has 25\.50 USD available; 1,000\.00 USD were asked for/, refusal);
    assert.equal(await page.locator('form[action$="/withdraw"] input[name=amount]').inputValue(), '1000.00');
    await check('account-refused');
    // A refusal that names a field shows beside it: the service's rule that the two sides differ.
    await go(`/dashboard/transfers/new?from_account_id=${accountB}`);
    await page.selectOption('#f-to_account_id', accountB);
    await page.fill('#f-amount', '1');
    await page.click('main button[type=submit]');
    assert.match(await page.locator('#f-to_account_id-error').innerText(), /must differ from from_account_id/);
    assert.equal(await page.locator('#f-to_account_id').getAttribute('aria-invalid'), 'true');
    await check('transfer-refused');
    await go('/dashboard/transfers');
    assert.match(await text(), /25\.50 USD/);
    await check('transfers');
  });

  test('a pending transfer: held on the sender, listed on its account, then posted in part', async () => {
    await go(`/dashboard/transfers/new?from_account_id=${accountA}`);
    await page.selectOption('#f-to_account_id', accountB);
    await page.fill('#f-amount', '10.00');
    await page.check('input[name=pending]');
    await page.click('main button[type=submit]');
    await page.waitForURL(/\/dashboard\/transfers\/tr_/);
    const transfer = page.url().split('/').at(-1)!.split('?')[0]!;
    assert.match(await text('h1'), /10\.00 USD\s*pending/);
    await check('transfer-pending');
    await go(`/dashboard/accounts/${accountA}`);
    assert.match(await text('main > .stats'), /64\.50 USD\s*Available balance[\s\S]*74\.50 USD\s*Current balance/);
    assert.ok((await text()).includes(transfer), 'the account lists what it holds');
    await go(`/dashboard/transfers/${transfer}`);
    await page.fill('form[action$="/post"] input[name=amount]', '6.00');
    await page.click('form[action$="/post"] button');
    await page.waitForURL(/done=posted/);
    assert.match(await text(), /posted[\s\S]*Posted\s*6\.00 USD/);
    await go(`/dashboard/accounts/${accountA}`);
    assert.match(await text('main > .stats'), /68\.50 USD\s*Available balance[\s\S]*68\.50 USD\s*Current balance/);
  });

  test('freeze and unfreeze', async () => {
    await go(`/dashboard/accounts/${accountA}`);
    await page.selectOption('form[action$="/freeze"] select[name=reason]', 'compliance_review');
    await page.fill('form[action$="/freeze"] input[name=note]', 'KYB documents requested');
    await page.click('form[action$="/freeze"] button[type=submit]');
    await page.waitForURL(/done=frozen/);
    assert.match(await text('h1'), /frozen/);
    assert.match(await text(), /compliance review[\s\S]*KYB documents requested/);
    await check('account-frozen');
    await page.click('form[action$="/unfreeze"] button[type=submit]');
    await page.waitForURL(/done=unfrozen/);
    assert.match(await text('h1'), /active/);
  });

  test('webhooks: add an endpoint and see its secret once; a failed delivery retried from the dashboard succeeds', async () => {
    receiver.answer = (_received, index) => ({ status: index === 0 ? 500 : 200 });
    await go('/dashboard/webhooks');
    await check('webhooks-empty');
    await page.fill('#f-url', receiver.url);
    await page.fill('#f-description', 'Local receiver');
    await page.click('main form button[type=submit].primary');
    const secret = await page.locator('#secret-value').innerText();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    await check('webhook-created');
    await go('/dashboard/webhooks');
    assert.match(await text(), /Local receiver/);
    await check('webhooks');
    await page.locator('main tbody a').first().click();
    assert.ok(!(await page.content()).includes(secret), 'the secret is shown once, then never again');
    await page.click('form[action$="/test"] button');
    await page.waitForURL(/done=tested/);
    await receiver.until((r) => r.length >= 1);
    // The failed attempt is recorded by the delivery worker moments after the endpoint answered.
    for (let i = 0; i < 100 && !/HTTP 500/.test((await page.locator('main').textContent()) ?? ''); i++) {
      await new Promise((r) => setTimeout(r, 100));
      await page.reload();
    }
    await page.click('details summary');
    assert.match(await text(), /pending[\s\S]*HTTP 500 · \d+ ms/, 'the attempt: its status and duration');
    await check('webhook');
    const endpointPath = new URL(page.url()).pathname;
    await go('/dashboard');
    assert.match(await text('section:has(#failing-h)'), new RegExp(receiver.url.replace(/\W/g, '\\$&')));
    await go(endpointPath);
    await page.click('form[action*="/retry"] button');
    await page.waitForURL(/done=retried/);
    await receiver.until((r) => r.length >= 2);
    for (let i = 0; i < 100 && !/succeeded/.test(await text('table')); i++) {
      await new Promise((r) => setTimeout(r, 100));
      await page.reload();
    }
    assert.match(await text('table'), /succeeded/);
    assert.equal(receiver.received.length, 2);
  });

  test('an endpoint: save its settings, disable and enable it, rotate its secret (shown once)', async () => {
    await go('/dashboard/webhooks');
    await page.locator('main tbody a').first().click();
    await page.fill('#f-description', 'Local receiver, renamed');
    await page.click('form:has(#f-url) button.primary');
    await page.waitForURL(/done=updated/);
    assert.equal(await page.locator('#f-description').inputValue(), 'Local receiver, renamed');
    await page.click('form[action$="/status"] button');
    await page.waitForURL(/done=disabled/);
    assert.match(await text('.facts'), /disabled/);
    await page.click('form[action$="/status"] button');
    await page.waitForURL(/done=enabled/);
    assert.match(await text('.facts'), /enabled/);
    const endpoint = new URL(page.url()).pathname;
    await page.selectOption('form[action$="/rotate"] select', '0');
    await page.click('form[action$="/rotate"] button');
    const secret = await page.locator('#secret-value').innerText();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    await check('secret-rotated');
    await go(endpoint);
    assert.ok(!(await page.content()).includes(secret), 'the new secret is shown once');
    // From now on the deliveries are signed with the new secret, and with it alone (no overlap was chosen).
    const before = receiver.received.length;
    await page.click('form[action$="/test"] button');
    await page.waitForURL(/done=tested/);
    const [delivered] = (await receiver.until((r) => r.length > before)).slice(before);
    assert.equal(verified(delivered!, [secret]).type, 'webhook_endpoint.test');
    assert.equal(String(delivered!.headers['webhook-signature']).split(' ').length, 1, 'the old one stopped at once');
  });

  test('events: filter by type, and one event with its body and deliveries', async () => {
    await go('/dashboard/events?type=fintech.account.frozen');
    const rows = page.locator('tbody tr');
    assert.equal(await rows.count(), 1);
    await check('events');
    await rows.locator('a').first().click();
    assert.match(await text(), /fintech\.account\.frozen[\s\S]*"reason": "compliance_review"/);
    await check('event');
    // The request that caused it, in the request log: the dashboard's freeze.
    await server.app.requestLog.flush();
    await page.click('main dd a[href^="/dashboard/requests/req_"]');
    assert.match(await text('h1'), /POST \/v1\/fintech\/accounts\/acct_\w+\/freeze\s*200/);
    await go('/dashboard/events?type=webhook_endpoint.test');
    await page.locator('tbody tr a').first().click();
    assert.match(await text(), /Deliveries[\s\S]*succeeded/);
  });

  test('requests: find one in the log by status, see what it was and what it produced', async () => {
    // An API request refused with 409, beside the dashboard's refused withdrawal above (409 too).
    const refused = await call(server.url, 'POST', '/v1/fintech/transfers', {
      key,
      json: { from_account_id: accountB, to_account_id: accountA, amount: 999_999, currency: 'USD' },
    });
    assert.equal(refused.status, 409);
    const requestId = refused.headers.get('request-id')!;
    await server.app.requestLog.flush(); // written in batches a moment after the answer; this is that moment
    await go('/dashboard/requests');
    await check('requests');
    await page.fill('#f-status', '409');
    await page.click('form.filters button');
    await page.waitForURL(/status=409/);
    const statuses = await page.locator('tbody tr td:nth-child(2) .badge').allInnerTexts();
    assert.ok(statuses.length >= 2 && statuses.every((s) => s === '409'), `only 409s: ${statuses.join(' ')}`);
    // A class of statuses (issue 40, item 9: `4xx` was an error page).
    await page.fill('#f-status', '4xx');
    await page.click('form.filters button');
    await page.waitForURL(/status=4xx/);
    const refusals = await page.locator('tbody tr td:nth-child(2) .badge').allInnerTexts();
    assert.ok(refusals.length >= statuses.length && refusals.every((s) => /^4\d\d$/.test(s)), refusals.join(' '));
    await check('requests-4xx');
    await page.fill('#f-status', '409');
    await page.click('form.filters button');
    await page.waitForURL(/status=409/);
    const rows = await text('tbody');
    const withdrawal = String.raw`POST /v1/sandbox/fintech/accounts/acct_\w+/withdrawals\s[^\n]* · dashboard · `;
    assert.match(rows, new RegExp(String.raw`${withdrawal}[^\n]*\s+409\s+insufficient_funds`));
    await page.click(`a[href="/dashboard/requests/${requestId}"]`);
    assert.match(await text(), /insufficient_funds[\s\S]*the API[\s\S]*"amount": 999999/);
    await check('request');
    // The account opened in the dashboard: its entry names the event it produced and the account, EIN redacted.
    await go('/dashboard/requests?status=200&method=POST&limit=100'); // every action so far, on one page
    // Recorded under the API operation it stood for, beside the API's own account creations.
    const opened = page
      .locator('tbody tr')
      .filter({ has: page.locator('td:nth-child(1) a .break', { hasText: /^\/v1\/fintech\/accounts$/ }) })
      .filter({ hasText: ' · dashboard · ' });
    await opened.locator('a').first().click();
    const entry = await text();
    assert.match(entry, /the dashboard[\s\S]*fintech\.account\.created[\s\S]*"ein": "\[redacted\]"/);
    assert.ok(!(await page.content()).includes('12-3456789'), 'the EIN is in no page');
    await page.click(`main ul.produced a[href="/dashboard/accounts/${accountA}"]`);
    assert.match(await text('h1'), new RegExp(accountA));
  });

  test('API keys: create one with a name (shown once), then revoke it', async () => {
    await go('/dashboard/api-keys');
    await page.fill('#f-name', 'CI deploys');
    await page.click('main form button.primary');
    const minted = await page.locator('#secret-value').innerText();
    assert.match(minted, /^sk_test_[0-9A-Za-z]{38}$/);
    assert.equal((await call(server.url, 'GET', '/v1/api_keys', { key: minted })).status, 200, 'the new key works');
    await check('key-created');
    await go('/dashboard/api-keys');
    assert.ok(!(await page.content()).includes(minted));
    const row = page.locator('tr', { hasText: 'CI deploys' });
    await row.getByRole('link', { name: 'Revoke CI deploys' }).click();
    await check('key-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL(/done=revoked/);
    assert.match(await page.locator('tr', { hasText: 'CI deploys' }).innerText(), /revoked/);
    assert.equal(
      (await call(server.url, 'GET', '/v1/api_keys', { key: minted })).status,
      401,
      'and it no longer works',
    );
    await check('api-keys');
  });

  test('home: counts, balances by currency, latest events', async () => {
    await go('/dashboard');
    assert.match(await text(), /2\s*Accounts[\s\S]*100\.00 USD/);
    await check('home');
    // The README's two pictures (`DASHBOARD_README_SHOTS=docs/images`): the overview on a desktop, an account on a
    // phone, each one screen high.
    const readme = process.env.DASHBOARD_README_SHOTS;
    if (readme) {
      await page.screenshot({ path: join(readme, 'dashboard-overview.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      await go(`/dashboard/accounts/${accountA}`);
      await page.screenshot({ path: join(readme, 'dashboard-account-phone.png') });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  test('close an account: final, nothing is left to do on it', async () => {
    const made = await call(server.url, 'POST', '/v1/fintech/accounts', {
      key,
      json: { type: 'business', country: 'US' },
    });
    await go(`/dashboard/accounts/${made.body.id}`);
    await page.click('summary:has-text("Close this account")');
    await page.selectOption('form[action$="/close"] select[name=reason]', 'customer_request');
    await page.click('form[action$="/close"] button[type=submit]');
    await page.waitForURL(/done=closed/);
    assert.match(await text('h1'), /closed/);
    assert.equal(await page.locator('form[action$="/freeze"]').count(), 0, 'a closed account has no actions left');
    await check('account-closed');
    assert.equal(
      (await call(server.url, 'GET', `/v1/fintech/accounts/${made.body.id}`, { key })).body.status,
      'closed',
    );
  });

  test('a form from another origin, or with a forged CSRF token, is refused and changes nothing', async () => {
    await go(`/dashboard/accounts/${accountA}`);
    const action = `${server.url}/dashboard/accounts/${accountA}/freeze`;
    const token = await page.locator('form[action$="/freeze"] input[name=csrf]').inputValue();
    // A page on another port of this host: another origin but the same site, so the SameSite=Strict cookie still
    // goes with its POST (and even the session's own token does): only the Origin check stands in the way.
    const hostile = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Prize</title><form method="post" action="${action}">
<input type="hidden" name="csrf" value="${token}"><input type="hidden" name="reason" value="other">
<button type="submit">Claim your prize</button></form>`);
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    const elsewhere = await context.newPage(); // not `page`: its requests to that origin are the point here
    try {
      await elsewhere.goto(`http://127.0.0.1:${(hostile.address() as AddressInfo).port}/`);
      const [answer] = await Promise.all([elsewhere.waitForNavigation(), elsewhere.click('button')]);
      assert.equal(answer?.status(), 403);
      assert.match(await elsewhere.locator('main').innerText(), /another site/);
    } finally {
      await elsewhere.close();
      hostile.close();
    }
    // This origin's own form, its token altered in the page.
    await go(`/dashboard/accounts/${accountA}`);
    await page
      .locator('form[action$="/freeze"] input[name=csrf]')
      .evaluate((input) => ((input as unknown as { value: string }).value = 'x'.repeat(43)));
    await page.selectOption('form[action$="/freeze"] select[name=reason]', 'other');
    const [forged] = await Promise.all([
      page.waitForNavigation(),
      page.click('form[action$="/freeze"] button[type=submit]'),
    ]);
    assert.equal(forged?.status(), 403);
    assert.match(await text(), /permission_denied/);
    await check('refused');
    const account = await call(server.url, 'GET', `/v1/fintech/accounts/${accountA}`, { key });
    assert.equal(account.body.status, 'active', 'neither froze the account');
  });

  test('sign out ends the session', async () => {
    await go('/dashboard');
    await page.click('header button', { hasText: 'Sign out' } as never);
    await page.waitForURL(/sign-in\?ended=signed-out/);
    assert.match(await text(), /signed out/);
    await check('signed-out');
    await go('/dashboard/accounts');
    assert.match(page.url(), /\/dashboard\/sign-in$/);
  });

  test('a session whose key is revoked ends', async () => {
    const second = await server.key('dash-acme');
    await go('/dashboard/sign-in');
    await page.fill('#f-key', second);
    await page.click('button[type=submit]');
    await page.waitForURL(`${server.url}/dashboard`);
    const keyId = (await call(server.url, 'GET', '/v1/api_keys?limit=100', { key })).body.data.find(
      (k: { hint: string }) => k.hint.endsWith(second.slice(-4)),
    ).id;
    assert.equal((await call(server.url, 'POST', `/v1/api_keys/${keyId}/revoke`, { key })).status, 200);
    // Revocation takes effect within the key cache's second (docs/api.md#authentication-and-modes, docs/dashboard.md#sessions); the wait is bounded.
    for (let i = 0; i < 50 && !page.url().includes('ended=revoked'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      await go('/dashboard/accounts');
    }
    assert.match(page.url(), /sign-in\?ended=revoked/);
    assert.match(await text(), /revoked/);
  });

  test('keyboard only: sign in, skip to the content, focus always visible', async () => {
    const keyboard = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const p = await keyboard.newPage();
    await p.goto(`${server.url}/dashboard/sign-in`);
    const focused = () =>
      p.evaluate(() => {
        const g = globalThis as any;
        const el = g.document.activeElement;
        const style = g.getComputedStyle(el);
        return { id: el.id, text: el.textContent.trim(), outline: style.outlineStyle, width: style.outlineWidth };
      });
    for (let i = 0; i < 5 && (await focused()).id !== 'f-key'; i++) await p.keyboard.press('Tab');
    assert.equal((await focused()).id, 'f-key', 'the key field is reached by Tab');
    await p.keyboard.type(key);
    await p.keyboard.press('Enter');
    await p.waitForURL(`${server.url}/dashboard`);
    await p.keyboard.press('Tab');
    const skip = await focused();
    assert.equal(skip.text, 'Skip to content', 'the first stop skips to the content');
    assert.notEqual(skip.outline, 'none', 'and shows where focus is');
    await p.keyboard.press('Tab');
    const next = await focused();
    assert.equal(next.text, 'Plinth');
    assert.notEqual(next.outline, 'none');
    await keyboard.close();
  });

  test('works with JavaScript off: sign in and freeze', async () => {
    const plain = await browser.newContext({ javaScriptEnabled: false });
    const p = await plain.newPage();
    await p.goto(`${server.url}/dashboard/sign-in`);
    await p.fill('#f-key', key);
    await p.click('button[type=submit]');
    await p.waitForURL(`${server.url}/dashboard`);
    await p.goto(`${server.url}/dashboard/accounts/${accountB}`);
    await p.selectOption('form[action$="/freeze"] select[name=reason]', 'customer_request');
    await p.click('form[action$="/freeze"] button[type=submit]');
    await p.waitForURL(/done=frozen/);
    assert.match(await p.locator('h1').innerText(), /frozen/);
    await plain.close();
  });

  test('no page asked another origin for anything, or broke the CSP', () => {
    assert.deepEqual(foreign, []);
    assert.deepEqual(cspViolations, []);
    assert.ok(checked.size >= 14, `pages checked by axe and screenshotted: ${[...checked].join(', ')}`);
  });
});
