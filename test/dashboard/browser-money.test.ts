/**
 * Reversals, balances at a moment, statements and nicknames in the dashboard, in Chromium (issue 31;
 * docs/dashboard.md#reversals, #balances-and-statements, #nicknames): part of a transfer reversed from its page, a
 * statement downloaded as CSV whose lines add up to its closing balance, nicknames beside ids, the transfer form's
 * pickers with the currency following the sender; axe-core on each new page and state. Screenshots go to
 * .tmp/dashboard/<backend>/money-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { parseCsv } from '../helpers/csv.ts';
import { assertAxeClean, signedIn } from '../helpers/dashboard-browser.ts';
import { money } from '../helpers/money.ts';
import { useServer } from '../helpers/server.ts';

const SHOTS = join(import.meta.dirname, '../../.tmp/dashboard', process.env.PLINTH_TEST_BACKEND ?? 'sqlite');
const FORMULAS = ['=HYPERLINK("http://x","y")', '+1', '@SUM(A1)'];
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

describe('money in the dashboard: reversals, statements, nicknames', { skip: skipWithoutChromium('issue 31') }, () => {
  const server = useServer({}, { clock });
  let browser: Browser;
  let page: Page;
  const ids = { payroll: '', other: '', pounds: '', transfer: '' };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const key = await server.key('dash-money');
    const m = money(server.url, key);
    ids.payroll = (await m.post('/v1/fintech/accounts', { type: 'business', country: 'US', nickname: 'Payroll' })).id;
    ids.other = await m.account();
    ids.pounds = (await m.post('/v1/fintech/accounts', { type: 'business', country: 'GB', nickname: 'London' })).id;
    await m.deposit(ids.payroll, 100_000);
    for (const [i, description] of FORMULAS.entries())
      await m.post('/v1/fintech/transfers', {
        ...{ from_account_id: ids.payroll, to_account_id: ids.other, amount: 200 + i, currency: 'USD', description },
      });
    ids.transfer = (await m.transfer(ids.payroll, ids.other, 4000)).id;
    offsetMs = 5000; // what was made above is in the past of every period the page asks for
    browser = await launchChromium();
    page = await signedIn(browser, server.url, key, 1280);
    page.on('dialog', (dialog) => dialog.accept()); // the confirmation before a reversal
  });
  after(() => browser?.close());

  const shoot = async (name: string) => {
    await page.screenshot({ path: join(SHOTS, `money-${name}.png`), fullPage: true });
    await assertAxeClean(page, name);
  };
  const text = (selector = 'main') => page.locator(selector).innerText();

  test('reverse part of a transfer from its page: listed, with the amounts; too much is refused beside the field', async () => {
    await page.goto(`${server.url}/dashboard/transfers/${ids.transfer}`);
    assert.match(await text('.facts'), /From\s*Payroll acct_/, 'the sender by its nickname and id');
    await shoot('transfer-posted');
    await page.fill('#f-amount', '15.00');
    await page.fill('#f-description', 'Refund: part');
    await page.click('form[action$="/reversals"] button[type=submit]');
    await page.waitForURL(/done=reversed/);
    assert.match(await text('.facts'), /Reversed\s*15\.00 USD of 40\.00 USD/);
    const row = await text('#reversals tbody tr');
    assert.match(row, /15\.00 USD\s*Refund: part\s*\d{4}-\d\d-\d\d \d\d:\d\d UTC[\s\S]*trr_/, row);
    await shoot('transfer-reversed-part');
    await page.fill('#f-amount', '30.00');
    await page.click('form[action$="/reversals"] button[type=submit]');
    assert.match(await text('#f-amount-error'), /25\.00|2500/, 'the API says how much remains');
    assert.equal(await page.locator('#f-amount').inputValue(), '30.00');
    await shoot('transfer-reversal-refused');
    await page.fill('#f-amount', '');
    await page.click('form[action$="/reversals"] button[type=submit]');
    await page.waitForURL(/done=reversed/);
    assert.match(await text('.facts'), /Reversed\s*40\.00 USD\s*fully reversed/);
    assert.equal(await page.locator('#reversals tbody tr').count(), 2);
    assert.equal(await page.locator('form[action$="/reversals"]').count(), 0, 'nothing is left to reverse');
    await shoot('transfer-fully-reversed');
  });

  test('a statement for a chosen period, downloaded as CSV: its lines add up to the closing balance', async () => {
    offsetMs += 2000; // the reversals above are before the period's end, taken to the second
    await page.goto(`${server.url}/dashboard/accounts/${ids.payroll}`);
    const now = clock().toISOString();
    await page.fill('#f-from', `${new Date(Date.now() - 3_600_000).toISOString().slice(0, 16)}`);
    await page.fill('#f-to', now.slice(0, 19));
    await page.click('#statement button[type=submit]');
    await page.waitForURL(/to=/);
    const facts = await text('#statement .facts');
    const closing = /Closing balance\s*([\d,.]+) USD/.exec(facts)?.[1]?.replace(/,/g, '');
    assert.equal(closing, String((100_000 - 603 - 4000 + 4000) / 100), facts);
    await shoot('account-statement');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=Download CSV')]);
    // Named by the account's nickname and the period (issue 40), a byte-order mark first.
    assert.match(download.suggestedFilename(), /^statement-Payroll-[\dT-]+-to-[\dT-]+\.csv$/);
    const file = readFileSync((await download.path())!, 'utf8');
    assert.equal(file[0], '\uFEFF');
    const [head, opening, ...lines] = parseCsv(file.slice(1));
    const last = lines.pop()!;
    assert.equal(head![9], 'Balance after (USD)');
    assert.deepEqual([opening![2], last[2]], ['Opening balance', 'Closing balance']);
    const cents = (s: string) => Math.round(Number(s) * 100);
    const sum = lines.reduce((total, line) => total + cents(line[8]!), cents(opening![9]!));
    assert.equal(sum, cents(last[9]!), 'opening + every line = closing');
    assert.equal(String(sum / 100), closing, 'the file agrees with the page');
    const described = lines.map((line) => line[2]).filter((d) => d !== '');
    assert.deepEqual(described, ['\'=HYPERLINK("http://x","y")', "'+1", "'@SUM(A1)", 'Refund: part']);
  });

  test('balances at a moment; one before the account was opened is refused beside the field', async () => {
    await page.goto(`${server.url}/dashboard/accounts/${ids.payroll}`);
    await page.fill('#f-at', '2020-01-01T00:00');
    await page.click('#balances button[type=submit]');
    await page.waitForURL(/at=/);
    assert.match(await text('#f-at-error'), /before the account was opened/);
    await shoot('account-balances-refused');
    await page.fill('#f-at', clock().toISOString().slice(0, 16));
    await page.click('#balances button[type=submit]');
    assert.match(await text('#balances .stats'), /993\.97 USD\s*Current balance at/);
  });

  test('nicknames: in the list, the heading and the picker; set and cleared from the account page', async () => {
    await page.goto(`${server.url}/dashboard/accounts`);
    assert.match(await page.locator('tbody tr', { hasText: ids.payroll }).innerText(), /Payroll\s*acct_/);
    await page.goto(`${server.url}/dashboard/accounts/${ids.other}`);
    await page.fill('#f-nickname', 'Suppliers');
    await page.click('form[action$="/nickname"] button[type=submit]');
    await page.waitForURL(/done=named/);
    assert.match(await text('h1'), new RegExp(`^Suppliers ${ids.other}`));
    await shoot('account-nickname');
    await page.goto(`${server.url}/dashboard/transfers/new`);
    const options = await page.locator('#f-from_account_id option').allInnerTexts();
    assert.ok(
      options.some((o) => o.startsWith(`Payroll · ${ids.payroll} · 993.97 USD`)),
      options.join('\n'),
    );
    assert.ok(
      options.some((o) => o.startsWith(`Suppliers · ${ids.other}`)),
      options.join('\n'),
    );
    await page.selectOption('#f-from_account_id', ids.pounds);
    assert.equal(await text('#transfer-currency'), 'GBP', 'the currency follows the sender');
    await page.selectOption('#f-from_account_id', ids.payroll);
    assert.equal(await text('#transfer-currency'), 'USD');
    await shoot('transfer-new');
    await page.selectOption('#f-to_account_id', ids.other);
    await page.fill('#f-amount', '1.00');
    await page.click('main button[type=submit].primary');
    await page.waitForURL(/done=created/);
    assert.match(await text('.facts'), /To\s*Suppliers acct_/);
    await page.goto(`${server.url}/dashboard/accounts/${ids.other}`);
    await page.fill('#f-nickname', '');
    await page.click('form[action$="/nickname"] button[type=submit]');
    await page.waitForURL(/done=unnamed/);
    assert.match(await text('h1'), new RegExp(`^${ids.other}`));
  });
});
