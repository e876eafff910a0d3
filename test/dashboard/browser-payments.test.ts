/**
 * Account numbers, payments, external accounts and the sandbox in the dashboard, in Chromium (issue 41;
 * docs/dashboard.md#payments): an account number created and shown once (copied with the page's own script, nothing
 * fetched from another origin), then only its last four digits; an inbound credit simulated to it; an external account
 * added (a bad routing number refused beside the field); a payment sent with the pickers, canceled while pending; one
 * settled by moving the sandbox clock and returned (its reason shown); the list's filters; a disabled number's payment
 * returned R02. axe-core on every page and state, at 1280 and 390 px (nothing cut off at the phone's edge); the nav and
 * pages follow the key's permissions and mode. Screenshots go to .tmp/dashboard/<backend>/payments-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { assertAxeClean, layoutFaults, signedIn } from '../helpers/dashboard-browser.ts';
import { money } from '../helpers/money.ts';
import { call, useServer } from '../helpers/server.ts';

const SHOTS = join(import.meta.dirname, '../../.tmp/dashboard', process.env.PLINTH_TEST_BACKEND ?? 'sqlite');
const PHONE = 390;

describe('payments in the dashboard', { skip: skipWithoutChromium('issue 41') }, () => {
  const server = useServer();
  let browser: Browser;
  let page: Page;
  let key: string;
  const ids = {
    account: '',
    number: '',
    fullNumber: '',
    external: '',
    canceled: '',
    returned: '',
    inbound: '',
    rejected: '',
  };
  const offOrigin: string[] = [];

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    key = await server.key('dash-payments');
    const m = money(server.url, key);
    ids.account = (await m.post('/v1/fintech/accounts', { type: 'business', country: 'US', nickname: 'Operating' })).id;
    await m.deposit(ids.account, 50_000);
    browser = await launchChromium();
    page = await signedIn(browser, server.url, key, 1280);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page.on('dialog', (dialog) => dialog.accept()); // the confirmations before cancel and disable
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) offOrigin.push(request.url());
    });
  });
  after(() => browser?.close());

  const shoot = async (name: string, p = page) => {
    await p.screenshot({ path: join(SHOTS, `payments-${name}.png`), fullPage: true });
    await assertAxeClean(p, name);
  };
  const text = (selector = 'main') => page.locator(selector).innerText();

  test('an account number: created from the account page, shown once with a copy button, then its last four', async () => {
    await page.goto(`${server.url}/dashboard/accounts/${ids.account}`);
    assert.match(await text('#account-numbers'), /No account numbers/);
    await shoot('account-no-numbers');
    await page.fill('#f-name', 'Rent collection');
    await page.selectOption('#f-inbound_debits', 'allowed');
    await page.click('#account-numbers button[type=submit]');
    await page.waitForSelector('.callout.secret');
    ids.fullNumber = await text('#secret-value');
    assert.match(ids.fullNumber, /^\d{12}$/);
    assert.match(await text('.facts'), /Routing number\s*110000000[\s\S]*Rent collection[\s\S]*allowed/);
    await shoot('account-number-created');
    await page.click('button[data-copy=secret-value]');
    await page.locator('button[data-copy=secret-value]', { hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()), ids.fullNumber);
    await page.click('text=Back to the account');
    const row = await text('#account-numbers tbody tr');
    assert.match(
      row,
      new RegExp(
        `…${ids.fullNumber.slice(-4)}[\\s\\S]*110000000[\\s\\S]*Rent collection[\\s\\S]*active[\\s\\S]*allowed`,
      ),
    );
    assert.doesNotMatch(await page.content(), new RegExp(ids.fullNumber), 'the full number is never shown again');
    ids.number = (await page.locator('#account-numbers tbody code', { hasText: 'an_' }).innerText()).trim();
    await shoot('account-numbers');
    assert.deepEqual(offOrigin, [], 'nothing fetched from another origin');
  });

  test('the sandbox: an inbound credit to the full number settles at once; a wrong number is refused', async () => {
    await page.click('nav[aria-label=Main] >> text=Sandbox');
    assert.match(await text('#clock-offset'), /none: real time/);
    await page.fill('#f-account_number', '000000000000');
    await page.fill('#f-amount', '100.00');
    await page.fill('#f-originator_name', 'Globex Corporation');
    await page.click('#inbound button[type=submit]');
    assert.match(await text('.problem'), /.+/);
    assert.equal(await page.locator('#f-account_number').inputValue(), '', 'a number is never echoed back');
    assert.equal(await page.locator('#f-originator_name').inputValue(), 'Globex Corporation');
    await shoot('sandbox-inbound-refused');
    await page.fill('#f-account_number', ids.fullNumber);
    await page.fill('#f-amount', '100.00');
    await page.click('#inbound button[type=submit]');
    await page.waitForURL(/done=received/);
    ids.inbound = /payments\/(pay_\w+)/.exec(page.url())![1]!;
    assert.match(await text('h1'), /100\.00 USD\s*settled/);
    assert.match(await text('.facts'), /Inbound[\s\S]*ACH[\s\S]*To\s*Operating acct_[\s\S]*From\s*Globex Corporation/);
    assert.match(await text('#timeline'), /Created\s*\d{4}-[\s\S]*Settled\s*\d{4}-/);
    await page.click('.facts a[href^="/dashboard/transfers/tr_"]');
    assert.match(await text('h1'), /100\.00 USD\s*posted/);
    assert.match(await text('.status-note'), /moves a payment’s money/);
    assert.equal(await page.locator('form[action$="/reversals"]').count(), 0, 'not reversed by hand');
    await shoot('payment-transfer');
    await page.goBack();
    await shoot('payment-inbound');
  });

  test('external accounts: a bad routing number refused beside the field; one added and viewed', async () => {
    await page.goto(`${server.url}/dashboard/external-accounts`);
    assert.match(await text(), /No external accounts yet/);
    await page.fill('#f-account_holder_name', 'Acme Supplies LLC');
    await page.fill('#f-routing_number', '021000022');
    await page.fill('#f-account_number', '000123456789');
    await page.click('main button[type=submit].primary');
    assert.match(await text('#f-routing_number-error'), /routing/i);
    assert.equal(await page.locator('#f-account_number').inputValue(), '', 'the number is typed again');
    await shoot('external-refused');
    await page.fill('#f-routing_number', '021000021');
    await page.fill('#f-account_number', '000123456789');
    await page.selectOption('#f-account_type', 'savings');
    await page.click('main button[type=submit].primary');
    await page.waitForURL(/done=created/);
    ids.external = /external-accounts\/(ext_\w+)/.exec(page.url())![1]!;
    assert.match(await text('.facts'), /021000021[\s\S]*…6789[\s\S]*savings/);
    assert.doesNotMatch(await text(), /000123456789/);
    await shoot('external-account');
    await page.goto(`${server.url}/dashboard/external-accounts`);
    assert.match(await text('tbody'), /Acme Supplies LLC[\s\S]*021000021[\s\S]*…6789[\s\S]*savings/);
    await shoot('external-accounts');
  });

  async function send(amount: string, rail = 'ach'): Promise<string> {
    await page.goto(`${server.url}/dashboard/external-accounts/${ids.external}`);
    await page.click('text=Send a payment to this account');
    assert.equal(await page.locator('#f-external_account_id').inputValue(), ids.external, 'picked already');
    await page.selectOption('#f-account_id', ids.account);
    await page.selectOption('#f-rail', rail);
    await page.fill('#f-amount', amount);
    await page.fill('#f-description', `Invoice ${amount}`);
    await page.click('main button[type=submit].primary');
    await page.waitForURL(/done=created/);
    return /payments\/(pay_\w+)/.exec(page.url())![1]!;
  }

  test('send a payment with the pickers; too much refused in dollars; canceled while pending submission', async () => {
    await page.goto(`${server.url}/dashboard/payments/new`);
    const options = await page.locator('#f-external_account_id option').allInnerTexts();
    assert.ok(
      options.some((o) => o.startsWith('Acme Supplies LLC · savings · 021000021 …6789')),
      options.join('\n'),
    );
    await page.selectOption('#f-account_id', ids.account);
    await page.selectOption('#f-external_account_id', ids.external);
    await page.fill('#f-amount', '1000.00');
    await page.click('main button[type=submit].primary');
    assert.match(await text('.problem'), /600\.00 USD/, 'the available balance, in dollars');
    assert.equal(await page.locator('#f-amount').inputValue(), '1000.00');
    await shoot('payment-refused');

    ids.canceled = await send('60.00');
    assert.match(await text('h1'), /60\.00 USD\s*pending_submission/);
    assert.match(await text('.facts'), /To\s*Acme Supplies LLC · 021000021 …6789 ext_/);
    assert.match(
      await text('#timeline'),
      /Created\s*\d{4}-[\s\S]*Submitted to the rail\s*not yet[\s\S]*Settled\s*not yet/,
    );
    await shoot('payment-pending');
    await page.click('form[action$="/cancel"] button[type=submit]');
    await page.waitForURL(/done=canceled/);
    assert.match(await text('h1'), /60\.00 USD\s*canceled/);
    assert.match(await text('#timeline'), /Created\s*\d{4}-[\s\S]*Canceled\s*\d{4}-/);
    assert.equal(await page.locator('form[action$="/cancel"]').count(), 0);
    await page.click('.facts a[href^="/dashboard/transfers/tr_"]');
    assert.match(await text('h1'), /voided/);
    assert.match(await text('.facts'), /To\s*ACH clearing sys_/);
    await page.goBack();
    await shoot('payment-canceled');
  });

  test('the clock: an hour, a day, and twice the next business morning settle an ACH payment; then it is returned', async () => {
    ids.returned = await send('25.00');
    await page.goto(`${server.url}/dashboard/sandbox`);
    await page.click('text=Advance 1 hour');
    await page.waitForURL(/done=advanced/);
    assert.match(await text('#clock-offset'), /^1 hour/);
    await page.click('text=Advance 1 day');
    await page.waitForURL(/done=advanced/);
    assert.match(await text('#clock-offset'), /^1 day 1 hour/);
    await shoot('sandbox-clock');
    for (let i = 0; i < 2; i++) {
      await page.click('text=Next business day');
      await page.waitForURL(/done=advanced/);
      assert.match(await text('#clock-now'), /T?09:00/, 'New York, 09:00');
      assert.match(await text('#clock-now'), /(Mon|Tue|Wed|Thu|Fri), .* 09:00 New York/);
    }
    // The account's balances default to the sandbox clock's now (they were real time's, before the sandbox's).
    const clockNow: string = (await money(server.url, key).get('/v1/sandbox/clock')).now;
    await page.goto(`${server.url}/dashboard/accounts/${ids.account}`);
    assert.equal((await page.locator('#f-at').inputValue()).slice(0, 13), clockNow.slice(0, 13).replace('T', ' '));
    await page.goto(`${server.url}/dashboard/payments/${ids.returned}`);
    assert.match(await text('h1'), /25\.00 USD\s*settled/);
    assert.match(await text('#timeline'), /Submitted to the rail\s*\d{4}-[\s\S]*Settled\s*\d{4}-/);
    assert.match(await text('#timeline'), /days? ago/, 'times told from the sandbox clock');
    await shoot('payment-settled');
    await page.selectOption('#f-reason', 'R01');
    await page.click('form[action$="/return"] button[type=submit]');
    await page.waitForURL(/done=returned/);
    assert.match(await text('h1'), /25\.00 USD\s*returned/);
    assert.match(await text('#return-reason'), /R01\s*·\s*Insufficient funds/);
    assert.match(await text('#timeline'), /Settled\s*\d{4}-[\s\S]*Returned\s*\d{4}-/);
    await shoot('payment-returned');
  });

  test('simulate on a payment page: a wire rejected before it settles', async () => {
    // The clock reads 09:00 New York (the test above): ten hours on, banking hours are over and a wire waits.
    const clock = await money(server.url, key).get('/v1/sandbox/clock');
    const evening = new Date(Date.parse(clock.now) + 10 * 3_600_000).toISOString();
    await money(server.url, key).post('/v1/sandbox/clock/advance', { to: evening });
    const wire = await send('7.00', 'wire');
    assert.match(await text('h1'), /7\.00 USD\s*(submitted|pending_submission)/);
    assert.equal(await page.locator('form[action$="/return"]').count(), 0, 'a wire is not returned');
    await shoot('payment-wire-pending');
    await page.click('form[action$="/reject"] button[type=submit]');
    await page.waitForURL(/done=rejected/);
    assert.match(await text('h1'), /7\.00 USD\s*rejected/);
    assert.match(await text('#timeline'), /Rejected\s*\d{4}-/);
    assert.equal(await page.locator('#simulate').count(), 0, 'nothing left to simulate');
    ids.rejected = wire;
  });

  test('the list: filters by status, rail and direction', async () => {
    await page.click('nav[aria-label=Main] >> text=Payments');
    assert.equal(await page.locator('main tbody tr').count(), 4);
    await shoot('payments');
    await page.selectOption('#f-status', 'returned');
    await page.click('form.filters button[type=submit]');
    await page.waitForURL(/status=returned/);
    assert.equal(await page.locator('main tbody tr').count(), 1);
    assert.match(
      await text('tbody'),
      new RegExp(`${ids.returned}[\\s\\S]*Out · ACH[\\s\\S]*−25\\.00 USD[\\s\\S]*returned\\s*R01`),
    );
    await page.goto(`${server.url}/dashboard/payments?direction=inbound&rail=ach`);
    assert.match(
      await text('tbody'),
      new RegExp(`${ids.inbound}[\\s\\S]*In · ACH[\\s\\S]*Globex Corporation[\\s\\S]*\\+100\\.00 USD`),
    );
    assert.equal(await page.locator('main tbody tr').count(), 1);
    await page.goto(`${server.url}/dashboard/accounts`);
    await page.fill('#f-q', ids.returned);
    await page.press('#f-q', 'Enter');
    await page.waitForURL(new RegExp(`/dashboard/payments/${ids.returned}$`));
    await page.goto(`${server.url}/dashboard/payments?rail=rtp`);
    assert.match(await text(), /No payments match/);
    await shoot('payments-none');
  });

  test('a disabled number: its row says so, and a payment to it is returned R02', async () => {
    await page.goto(`${server.url}/dashboard/accounts/${ids.account}`);
    await page.click('#account-numbers button.danger');
    await page.waitForURL(/done=number_disabled/);
    assert.match(await text('#account-numbers tbody tr'), /disabled/);
    assert.equal(await page.locator('#account-numbers button.danger').count(), 0);
    await shoot('account-number-disabled');
    await page.goto(`${server.url}/dashboard/sandbox`);
    await page.fill('#f-account_number', ids.fullNumber);
    await page.fill('#f-amount', '5.00');
    await page.fill('#f-originator_name', 'Globex Corporation');
    await page.click('#inbound button[type=submit]');
    await page.waitForURL(/done=received/);
    assert.match(await text('h1'), /5\.00 USD\s*returned/);
    assert.match(await text('#return-reason'), /R02/);
    assert.match(await text('.facts'), /Transfer\s*none: no money moved/);
  });

  test('at 390 px: every new page reads without sideways scrolling, nothing cut off', async () => {
    const phone = await signedIn(browser, server.url, key, PHONE);
    const body = { account_id: ids.account, external_account_id: ids.external, amount: 1234, currency: 'USD' };
    const pending = await money(server.url, key).post('/v1/fintech/payments', { ...body, rail: 'ach' });
    const pages = [
      ['payment-pending', `/dashboard/payments/${pending.id}`],
      ['payments', '/dashboard/payments'],
      ['payment', `/dashboard/payments/${ids.returned}`],
      ['payment-new', '/dashboard/payments/new'],
      ['externals', '/dashboard/external-accounts'],
      ['external', `/dashboard/external-accounts/${ids.external}`],
      ['sandbox', '/dashboard/sandbox'],
      ['account', `/dashboard/accounts/${ids.account}`],
    ];
    for (const [name, path] of pages) {
      await phone.goto(`${server.url}${path}`);
      const faults = await layoutFaults(phone);
      assert.ok(faults.scrollWidth <= PHONE, `${name} scrolls sideways (${faults.scrollWidth} px wide)`);
      assert.deepEqual(faults.cutOff, [], `${name}: cut off at the right edge`);
      assert.deepEqual(faults.brokenIds, [], `${name}: ids broken over lines`);
      await shoot(`phone-${name}`, phone);
    }
    await phone.goto(`${server.url}/dashboard/accounts/${ids.account}`);
    await phone.click('#account-numbers button[type=submit]');
    await phone.waitForSelector('.callout.secret');
    assert.ok((await layoutFaults(phone)).scrollWidth <= PHONE, 'the number shown once fits');
    await shoot('phone-account-number-created', phone);
    await phone.context().close();
  });

  test('permissions and mode: the nav and pages follow the key', async () => {
    const made = await call(server.url, 'POST', '/v1/api_keys', {
      key,
      json: { permissions: { accounts: 'read', transactions: 'read', payments: 'read' } },
    });
    assert.equal(made.status, 200, made.text);
    const reader = await signedIn(browser, server.url, made.body.key, 1280);
    const nav = await reader.locator('nav[aria-label=Main] a').allInnerTexts();
    assert.deepEqual(nav, ['Home', 'Accounts', 'Payments', 'External accounts']);
    await reader.goto(`${server.url}/dashboard/accounts/${ids.account}`);
    assert.match(await reader.locator('#account-numbers').innerText(), /…\d{4}/);
    assert.equal(await reader.locator('#account-numbers form').count(), 0, 'no create, no disable');
    await reader.goto(`${server.url}/dashboard/payments`);
    assert.equal(await reader.locator('a', { hasText: 'Send a payment' }).count(), 0);
    await reader.goto(`${server.url}/dashboard/external-accounts`);
    assert.equal(await reader.locator('main form[method=post]').count(), 0);
    const refused = await reader.goto(`${server.url}/dashboard/sandbox`);
    assert.equal(refused?.status(), 403);
    await assertAxeClean(reader, 'sandbox refused');
    await reader.context().close();

    const liveKey = await server.key('dash-payments-live', 'live');
    const live = await signedIn(browser, server.url, liveKey, 1280);
    assert.ok(!(await live.locator('nav[aria-label=Main] a').allInnerTexts()).includes('Sandbox'));
    assert.ok((await live.locator('nav[aria-label=Main] a').allInnerTexts()).includes('Payments'));
    assert.equal((await live.goto(`${server.url}/dashboard/sandbox`))?.status(), 403);
    // Live numbers need the deployment's routing number, which this server has not: the API's refusal, in the form.
    const liveAccount = (await money(server.url, liveKey).account()) as string;
    await live.goto(`${server.url}/dashboard/accounts/${liveAccount}`);
    await live.click('#account-numbers button[type=submit]');
    assert.match(await live.locator('#account-numbers .problem').innerText(), /live_rails_not_configured/);
    await assertAxeClean(live, 'live account number refused');
    await live.context().close();
  });
});
