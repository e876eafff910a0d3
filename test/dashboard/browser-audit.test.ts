/**
 * The dashboard's Audit page (issue 43, docs/dashboard.md#audit), in Chromium: a fresh org's latest checkpoint as the
 * API signs it (origin, size, head hash, the note byte for byte, copied by its button) and the key that signs it;
 * "Verify the chain" run server-side says the chain verifies and changes nothing; after a ledger row is changed
 * behind the database's append-only triggers, it names the first bad sequence and the table; with JavaScript off the
 * button works the same. axe-core finds nothing serious at 1280 and 390 px, nor without the page's scripts; at 390 px
 * nothing reaches past the screen's edge. Screenshots go to .tmp/dashboard/<backend>/audit-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '../../src/db/database.ts';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { get, hiddenFields, post, signIn } from '../helpers/dashboard.ts';
import { assertAxeClean, layoutFaults, signedIn } from '../helpers/dashboard-browser.ts';
import { money } from '../helpers/money.ts';
import { assertAxeCleanWithoutScripts } from '../helpers/no-script.ts';
import { call, useServer } from '../helpers/server.ts';

const BACKEND = process.env.PLINTH_TEST_BACKEND ?? 'sqlite';
const SHOTS = join(import.meta.dirname, '../../.tmp/dashboard', BACKEND);
const PHONE = 390;

describe('the dashboard Audit page', { skip: skipWithoutChromium('the dashboard audit test') }, () => {
  const server = useServer();
  let browser: Browser;
  let key: string;
  let page: Page;
  const api = async (path: string) => {
    const answer = await call(server.url, 'GET', path, { key });
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    key = await server.key('dash-audit');
    browser = await launchChromium();
    page = await signedIn(browser, server.url, key, 1280);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  });
  after(() => browser?.close());

  async function check(name: string): Promise<void> {
    await page.screenshot({ path: join(SHOTS, `audit-${name}-1280.png`), fullPage: true });
    await assertAxeClean(page, `audit: ${name}`);
    await page.setViewportSize({ width: PHONE, height: 844 });
    try {
      await page.screenshot({ path: join(SHOTS, `audit-${name}-${PHONE}.png`), fullPage: true });
      const faults = await layoutFaults(page);
      assert.ok(faults.scrollWidth <= PHONE, `${name} scrolls sideways (${faults.scrollWidth} px wide)`);
      assert.deepEqual(faults.cutOff, [], `${name}: cut off at the right edge`);
      await assertAxeClean(page, `audit: ${name} at ${PHONE} px`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }

  test("a fresh org: the nav's Audit, the checkpoint as the API signs it, the note copied exactly", async () => {
    await page.click('nav[aria-label=Main] >> text=Audit');
    await page.waitForURL(`${server.url}/dashboard/audit`);
    assert.equal(await page.locator('nav[aria-label=Main] a[aria-current=page]').innerText(), 'Audit');
    assert.equal(await page.locator('h1').innerText(), 'Audit');
    const checkpoint = await api('/v1/audit/checkpoint');
    const publicKey = await api('/v1/audit/public_key');
    assert.match(checkpoint.origin, /^plinth\/org_\w+\/sandbox$/);
    const facts = await page.locator('#checkpoint').innerText();
    assert.ok(facts.includes(checkpoint.origin), facts);
    assert.equal(
      await page.locator('#checkpoint-size').innerText(),
      `${checkpoint.size} event${checkpoint.size === 1 ? '' : 's'}`,
    );
    assert.equal(await page.locator('#checkpoint-hash').innerText(), checkpoint.hash);
    // Ed25519 signs the same text the same way: the page's note is the API's, byte for byte.
    assert.equal(await page.locator('#checkpoint-note').textContent(), checkpoint.note);
    assert.equal(await page.locator('#verifier-key').innerText(), publicKey.verifier_key);
    assert.ok(facts.includes(publicKey.key_id), 'the key id is shown');
    await page.getByRole('button', { name: 'Copy the note' }).click();
    assert.equal(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()), checkpoint.note);
    const yourself = await page.locator('#yourself').innerText();
    assert.ok(
      yourself.includes(
        `npm run --silent cli -- audit verify --org ${checkpoint.origin.split('/')[1]} --mode sandbox --checkpoint checkpoint.txt`,
      ),
      yourself,
    );
    assert.match(yourself, /docs\/api\.md#verifying-the-history/);
    assert.equal(await page.locator('#yourself a[href="/docs#tag/Audit"]').count(), 1);
    await check('fresh');
    await assertAxeCleanWithoutScripts(browser, page.url(), 'the audit page', page.context());
    await assertAxeCleanWithoutScripts(browser, page.url(), 'the audit page', page.context(), PHONE);
  });

  test('Verify the chain: ok, with the events and ledger rows it checked; nothing written', async () => {
    const m = money(server.url, key);
    const [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 10_000);
    await m.transfer(a, b, 2_550);
    await m.post('/v1/fintech/accounts', { type: 'business', country: 'US', metadata: { note: 'Zoë — ünïcode' } });
    const before = await api('/v1/audit/checkpoint');
    assert.ok(before.size >= 5, `${before.size} events`);
    await page.goto(`${server.url}/dashboard/audit`);
    await page.getByRole('button', { name: 'Verify the chain' }).click();
    const result = page.locator('#verify-result');
    await result.waitFor();
    assert.equal(await result.getAttribute('role'), 'status');
    const text = await result.innerText();
    assert.match(text, /The chain verifies/);
    assert.ok(text.includes(`${before.size} events chained, head ${before.hash}`), text);
    assert.ok(text.includes(`${before.size} bodies checked`), text);
    assert.match(text, /3 rows of ledger_entries agree with their events/);
    const after = await api('/v1/audit/checkpoint');
    assert.deepEqual([after.size, after.hash], [before.size, before.hash], 'verifying wrote no event');
    // A dashboard action, in the request log with what it found (as every POST of a session is).
    await server.app.requestLog.flush();
    const logged = (await api('/v1/requests?method=POST&limit=20')).data.find(
      (r: { path: string }) => r.path === '/dashboard/audit/verify',
    );
    assert.equal(logged?.source, 'dashboard');
    assert.equal(logged.status, 200);
    assert.equal(JSON.parse(logged.response_body).size, before.size);
    await check('verified');
  });

  test('a ledger row changed behind the triggers: Verify names the first bad sequence and the table', async () => {
    const created = (await api('/v1/events?type=fintech.transaction.created&limit=100')).data;
    const first = created.at(-1); // the oldest: the deposit's transaction
    const transaction = first.data.object.id as string;
    await tamper(server.database, transaction);
    await page.goto(`${server.url}/dashboard/audit`);
    await page.getByRole('button', { name: 'Verify the chain' }).click();
    const result = page.locator('#verify-result');
    await result.waitFor();
    assert.equal(await result.getAttribute('role'), 'alert');
    const text = await result.innerText();
    assert.match(text, new RegExp(`The chain does not verify at sequence ${first.sequence}\\.`));
    assert.match(text, /Table\s+ledger_entries/);
    assert.ok(text.includes(`transaction ${transaction} differs from its event in amount`), text);
    await check('failed');

    // JavaScript off: the button is a plain form, and says the same.
    const plain = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
      storageState: await page.context().storageState(),
    });
    try {
      const p = await plain.newPage();
      await p.goto(`${server.url}/dashboard/audit`);
      assert.equal(await p.locator('#verify-result').count(), 0);
      await p.getByRole('button', { name: 'Verify the chain' }).click();
      await p.waitForURL(`${server.url}/dashboard/audit/verify#verify`);
      assert.match(await p.locator('#verify-result').innerText(), new RegExp(`at sequence ${first.sequence}\\.`));
    } finally {
      await plain.close();
    }
  });

  test('a key that may not read events: no Audit in the nav, the page and its button refused', async () => {
    const made = await call(server.url, 'POST', '/v1/api_keys', {
      key,
      json: { permissions: { accounts: 'read' } },
    });
    assert.equal(made.status, 200, made.text);
    const cookie = await signIn(server.url, made.body.key);
    const home = await get(server.url, '/dashboard', cookie);
    assert.doesNotMatch(home.html, /href="\/dashboard\/audit"/);
    const refused = await get(server.url, '/dashboard/audit', cookie);
    assert.equal(refused.status, 403);
    assert.match(refused.html, /events/);
    const csrf = hiddenFields(home.html, '/dashboard/sign-out').csrf!;
    const verify = await post(server.url, '/dashboard/audit/verify', { csrf }, { cookie });
    assert.equal(verify.status, 403);
    assert.doesNotMatch(verify.html, /verify-result/);
  });
});

// Plain HTTP, no browser: runs wherever the suite runs.
describe("Verify's failure shows a ledger row's values only to a key that may read transactions", () => {
  const server = useServer();

  /** "Verify the chain" posted in a session of `key`: the verdict's text, and the request log's record of it. */
  async function verified(key: string): Promise<string> {
    const cookie = await signIn(server.url, key);
    const page = await get(server.url, '/dashboard/audit', cookie);
    assert.equal(page.status, 200, page.html.slice(0, 300));
    const { csrf } = hiddenFields(page.html, '/dashboard/audit/verify#verify');
    const answer = await post(server.url, '/dashboard/audit/verify', { csrf: csrf! }, { cookie });
    assert.equal(answer.status, 200, answer.html.slice(0, 300));
    const at = answer.html.indexOf('id="verify-result"');
    assert.ok(at > 0, 'a verdict is shown');
    return answer.html.slice(at, answer.html.indexOf('</div>', at));
  }

  test("events: read without transactions: read: the fields that differ and the event's values, not the row's", async () => {
    const key = await server.key('dash-audit-restricted');
    const m = money(server.url, key);
    await m.deposit(await m.account(), 10_000);
    const events = await call(server.url, 'GET', '/v1/events?type=fintech.transaction.created&limit=10', { key });
    const event = events.body.data.at(-1);
    const transaction = event.data.object.id as string;
    assert.equal(event.data.object.amount, 10_000);
    await tamper(server.database, transaction); // the ledger now holds 10001

    const full = await verifyText(await verified(key));
    assert.ok(
      full.includes(`transaction ${transaction} differs from its event in amount: amount 10001, event 10000`),
      full,
    );

    const made = await call(server.url, 'POST', '/v1/api_keys', { key, json: { permissions: { events: 'read' } } });
    assert.equal(made.status, 200, made.text);
    const text = await verifyText(await verified(made.body.key));
    assert.match(text, new RegExp(`at sequence ${event.sequence}\\.`));
    assert.ok(
      text.includes(
        `transaction ${transaction} differs from its event in amount (what the ledger holds now needs ` +
          'transactions: read): event amount 10000',
      ),
      text,
    );
    assert.doesNotMatch(text, /10001/, 'the amount the ledger holds now is not shown');
    // Nor kept in the request log, where a key with requests: read would find it.
    await server.app.requestLog.flush();
    const logged = (await call(server.url, 'GET', '/v1/requests?method=POST&limit=20', { key })).body.data.filter(
      (r: { path: string }) => r.path === '/dashboard/audit/verify',
    );
    assert.equal(logged.length, 2);
    const restricted = logged.find((r: { response_body: string }) => !r.response_body.includes('amount 10001'));
    assert.ok(restricted, "one record without the row's amount");
    assert.doesNotMatch(restricted.response_body, /10001/);
  });
});

/** A verdict's HTML as text: tags dropped, entities read. */
function verifyText(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** As the database's owner would: the append-only triggers set aside, one amount changed, the triggers back. */
async function tamper(db: Database, transaction: string): Promise<void> {
  if (BACKEND === 'postgres') {
    await db.write(async (trx) => {
      await sql`alter table ledger_entries disable trigger user`.execute(trx);
      await sql`update ledger_entries set amount = amount + 1 where id = ${transaction}`.execute(trx);
      await sql`alter table ledger_entries enable trigger user`.execute(trx);
    });
    return;
  }
  await db.write(async (trx) => {
    const triggers = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
      where type = 'trigger' and tbl_name = 'ledger_entries'`.execute(trx);
    assert.ok(triggers.rows.length > 0, 'ledger_entries has its triggers');
    for (const t of triggers.rows) await sql`drop trigger ${sql.id(t.name)}`.execute(trx);
    await sql`update ledger_entries set amount = amount + 1 where id = ${transaction}`.execute(trx);
    for (const t of triggers.rows) await sql.raw(t.sql).execute(trx);
  });
  const refused = db.write((trx) => sql`update ledger_entries set amount = 1 where id = ${transaction}`.execute(trx));
  await assert.rejects(refused, /append-only/, 'the triggers are back');
}
