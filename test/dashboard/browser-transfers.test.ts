/**
 * A resolved hold in the dashboard, in Chromium (issue 30): the list and the transfer's page show what moved, and
 * what returned to the sender, for a partial post, a void and an expiry; a resolved hold shows no "Held until".
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ownerNow } from '../../src/platform/clock/clock.ts';
import { expireDue } from '../../src/products/fintech/transfers.expiry.ts';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { assertAxeClean, signedIn } from '../helpers/dashboard-browser.ts';
import { money } from '../helpers/money.ts';
import { useServer } from '../helpers/server.ts';

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

describe('resolved holds in the dashboard', { skip: skipWithoutChromium('the dashboard transfers test') }, () => {
  const server = useServer({ TRANSFER_EXPIRY_SWEEP_SECONDS: '60' }, { clock });
  let browser: Browser;
  let page: Page;
  const ids = { partial: '', voided: '', expired: '' };

  before(async () => {
    const key = await server.key('dash-holds');
    const m = money(server.url, key);
    const [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 100_000);
    const hold = async (amount: number, extra = {}) =>
      (
        await m.post('/v1/fintech/transfers', {
          ...{ from_account_id: a, to_account_id: b, amount, currency: 'USD', pending: true },
          ...extra,
        })
      ).id as string;
    ids.partial = await hold(12_000);
    await m.post(`/v1/fintech/transfers/${ids.partial}/post`, { amount: 7500 });
    ids.voided = await hold(5000);
    await m.post(`/v1/fintech/transfers/${ids.voided}/void`, {});
    ids.expired = await hold(3000, { expires_in_seconds: 60 });
    offsetMs = 61_000; // the hold's minute has passed: the sweep expires it
    try {
      const deps = { db: server.database.db, clock, now: ownerNow(clock), events: server.app.events };
      await server.database.write((trx) => expireDue(deps, trx, 100));
    } finally {
      offsetMs = 0;
    }
    assert.equal((await m.get(`/v1/fintech/transfers/${ids.expired}`)).status, 'expired');
    browser = await launchChromium();
    page = await signedIn(browser, server.url, key, 1280);
  });
  after(() => browser?.close());

  // Written by hand from the amounts above: what moved, what was held, what returned.
  const cases = [
    {
      name: 'partial',
      heading: /^75\.00 USD\s*posted$/,
      row: /75\.00 USD\s*of 120\.00 USD held; 45\.00 USD released/,
      facts: /Held\s*120\.00 USD\s*Posted\s*75\.00 USD\s*Released\s*45\.00 USD/,
    },
    {
      name: 'voided',
      heading: /^50\.00 USD\s*voided$/,
      row: /50\.00 USD\s*released to the sender, nothing moved/,
      facts: /Held\s*50\.00 USD\s*Released\s*50\.00 USD/,
    },
    {
      name: 'expired',
      heading: /^30\.00 USD\s*expired$/,
      row: /30\.00 USD\s*released to the sender, nothing moved/,
      facts: /Held\s*30\.00 USD\s*Released\s*30\.00 USD/,
    },
  ] as const;

  test('the transfers list: each row shows what moved and what was released', async () => {
    await page.goto(`${server.url}/dashboard/transfers`);
    for (const c of cases) {
      const row = await page.locator('tbody tr', { hasText: ids[c.name] }).innerText();
      assert.match(row, c.row, `${c.name}: ${row}`);
      assert.doesNotMatch(row, /120\.00 USD\s*posted/, `${c.name}: ${row}`);
    }
    await assertAxeClean(page, 'transfers');
  });

  for (const c of cases) {
    test(`the ${c.name} transfer's page: the amount that moved heads it, and no hold remains`, async () => {
      await page.goto(`${server.url}/dashboard/transfers/${ids[c.name]}`);
      assert.match(await page.locator('h1').innerText(), c.heading);
      const facts = await page.locator('.facts').innerText();
      assert.match(facts, c.facts, facts);
      assert.doesNotMatch(facts, /Held until/, 'a resolved hold is held no longer');
      assert.equal(/Posted/.test(facts), c.name === 'partial', 'only a post has a posted amount');
      await assertAxeClean(page, `transfer-${c.name}`);
    });
  }
});
