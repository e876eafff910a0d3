/**
 * Dashboard actions keep the API's rules (docs/dashboard.md#one-set-of-rules): one rendered form sent twice is one request (the API's
 * idempotency step, under the form's key, replayed), a refusal answers with the problem's status and the API's own
 * detail, events name the dashboard request and its key, and every request of a session spends the key's rate limit.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { get, hiddenFields, post, signIn } from '../helpers/dashboard.ts';
import { call, useServer } from '../helpers/server.ts';

describe('dashboard actions', () => {
  const server = useServer();

  async function twoAccounts(key: string) {
    const open = async () =>
      (await call(server.url, 'POST', '/v1/fintech/accounts', { key, json: { type: 'business', country: 'US' } })).body
        .id;
    const a = await open();
    const b = await open();
    assert.equal(
      (await call(server.url, 'POST', `/v1/sandbox/fintech/accounts/${a}/deposits`, { key, json: { amount: 10_000 } }))
        .status,
      200,
    );
    return [a, b] as const;
  }

  test('a form sent twice moves money once: the second answer is the first, replayed', async () => {
    const key = await server.key('act-idem');
    const [a, b] = await twoAccounts(key);
    const cookie = await signIn(server.url, key);
    const page = await get(server.url, `/dashboard/transfers/new?from_account_id=${a}`, cookie);
    const fields: Record<string, string> = {
      ...hiddenFields(page.html, '/dashboard/transfers'),
      from_account_id: a,
      to_account_id: b,
      currency: 'USD',
      amount: '12.34',
    };
    assert.match(fields.idempotency_key!, /^dash_[A-Za-z0-9_-]{22}$/);
    const first = await post(server.url, '/dashboard/transfers', fields, { cookie });
    const second = await post(server.url, '/dashboard/transfers', fields, { cookie });
    assert.equal(first.status, 303);
    assert.equal(second.headers.get('location'), first.headers.get('location'), 'the same transfer');
    const transfers = (await call(server.url, 'GET', `/v1/fintech/transfers?account_id=${a}`, { key })).body.data;
    assert.equal(transfers.length, 1);
    assert.equal(transfers[0].amount, 1234, '12.34 USD is 1234 cents');
    // The event names the dashboard's request and the form's key, as it would an API request's.
    const events = (await call(server.url, 'GET', '/v1/events?type=fintech.transfer.created', { key })).body.data;
    assert.equal(events[0].request.idempotency_key, fields.idempotency_key);
    assert.match(events[0].request.id, /^req_/);
    // The same key with another request is the API's 422, shown as a refusal.
    const reused = await post(server.url, '/dashboard/transfers', { ...fields, amount: '1.00' }, { cookie });
    assert.equal(reused.status, 422);
    assert.match(reused.html, /idempotency_key_reused/);
    // And the form shown again carries a new key: it is a new request.
    assert.notEqual(hiddenFields(reused.html, '/dashboard/transfers').idempotency_key, fields.idempotency_key);
  });

  test('a refusal answers with the problem’s status, the API’s detail beside its field, and the typed values', async () => {
    const key = await server.key('act-refuse');
    const [a, b] = await twoAccounts(key);
    const cookie = await signIn(server.url, key);
    let page = await get(server.url, '/dashboard/transfers/new', cookie);
    // Each submission carries the hidden fields of the page before it, as a browser's would: a refused form comes
    // back with a new Idempotency-Key (the refusal was the old key's outcome).
    const send = async (fields: Record<string, string>, action = '/dashboard/transfers') => {
      page = await post(
        server.url,
        action,
        { ...hiddenFields(page.html, '/dashboard/transfers'), ...fields },
        { cookie },
      );
      return page;
    };
    const base = { from_account_id: a, to_account_id: b, currency: 'USD' };
    const short = await send({ ...base, amount: '500.00' });
    assert.equal(short.status, 409);
    assert.match(short.html, /insufficient_funds/);
    // The API's detail, in the form's unit (issue 40): "10000 USD (minor units) available; 50000 were asked for".
    assert.match(short.html, /100\.00 USD available; 500\.00 USD were asked for/);
    assert.match(short.html, /id="f-amount"[^>]*value="500.00"/, 'what was typed is kept');
    const invalid = await send({ ...base, amount: '1.234' });
    assert.equal(invalid.status, 400);
    assert.match(
      invalid.html,
      /id="f-amount-error">amount must be an amount in USD such as 12.50, with at most 2 decimals/,
    );
    // The currency is the sender's: none chosen is refused beside the picker, before the API is asked.
    const noSender = await send({ ...base, from_account_id: '', amount: '1' });
    assert.equal(noSender.status, 400);
    assert.match(noSender.html, /id="f-from_account_id-error">Choose the account to send from\./);
    const other = await server.key('act-refuse-other');
    const foreign = await call(server.url, 'POST', '/v1/fintech/accounts', {
      key: other,
      json: { type: 'business', country: 'US' },
    });
    const notSeen = await send({ ...base, to_account_id: foreign.body.id, amount: '1' });
    assert.equal(notSeen.status, 404, 'another org’s account is not found, as through the API');
    assert.equal(
      (
        await call(server.url, 'GET', `/v1/fintech/accounts/${foreign.body.id}/transactions`, {
          key: await server.key('act-refuse-other'),
        })
      ).body.data.length,
      0,
    );
  });

  test('a pending transfer voided from its page; voiding it again is the API’s 409', async () => {
    const key = await server.key('act-void');
    const [a, b] = await twoAccounts(key);
    const made = await call(server.url, 'POST', '/v1/fintech/transfers', {
      key,
      json: { from_account_id: a, to_account_id: b, amount: 4000, currency: 'USD', pending: true },
    });
    assert.equal(made.body.status, 'pending');
    const cookie = await signIn(server.url, key);
    const path = `/dashboard/transfers/${made.body.id}`;
    const page = await get(server.url, path, cookie);
    assert.match(page.html, /Post or void/);
    const voided = await post(server.url, `${path}/void`, hiddenFields(page.html, `${path}/void`), { cookie });
    assert.equal(voided.headers.get('location'), `${path}?done=voided`);
    const account = (await call(server.url, 'GET', `/v1/fintech/accounts/${a}`, { key })).body;
    assert.equal(account.available_balance.amount, 10_000, 'the hold is released');
    // A second form (its own Idempotency-Key): not a replay of the first, so the service answers.
    const second = { ...hiddenFields(page.html, `${path}/void`), idempotency_key: 'dash_second' };
    const again = await post(server.url, `${path}/void`, second, { cookie });
    assert.equal(again.status, 409);
    assert.match(again.html, /transfer_not_pending/);
    assert.match(again.html, /is voided; only a pending one moves/);
  });

  test('the request log: every action of a session, as the operation it stood for; no page view, no form field', async () => {
    const key = await server.key('act-log');
    const cookie = await signIn(server.url, key);
    const page = await get(server.url, '/dashboard/accounts', cookie);
    const fields: Record<string, string> = {
      // The opening form (the search box before it is a GET to the same path, with no hidden fields)
      ...hiddenFields(page.html.slice(page.html.indexOf('id="create"')), '/dashboard/accounts'),
      type: 'business',
      country: 'US',
      'kyb.legal_name': 'Acme Corp',
      'kyb.ein': '12-3456789',
    };
    const first = await post(server.url, '/dashboard/accounts', fields, { cookie });
    const again = await post(server.url, '/dashboard/accounts', fields, { cookie });
    assert.equal(again.headers.get('location'), first.headers.get('location'));
    const forged = await post(server.url, '/dashboard/accounts', { ...fields, csrf: 'x'.repeat(43) }, { cookie });
    assert.equal(forged.status, 403);
    await server.app.requestLog.flush();
    const log = (await call(server.url, 'GET', '/v1/requests?limit=100', { key })).body.data;
    const actions = log.filter((r: { source: string }) => r.source === 'dashboard');
    assert.deepEqual(
      actions.map((r: Record<string, unknown>) => [r.method, r.route, r.status, r.error_code, r.idempotent_replayed]),
      [
        ['POST', '/dashboard/accounts', 403, 'permission_denied', false],
        ['POST', '/v1/fintech/accounts', 200, null, true],
        ['POST', '/v1/fintech/accounts', 200, null, false],
      ],
      'newest first; page views (the GET above) are not actions; a form refused before it named an operation ' +
        'keeps its own path',
    );
    const [refused, replayed, made] = actions;
    assert.equal(made.path, '/v1/fintech/accounts');
    assert.match(refused.error_detail, /out of date/);
    assert.equal(made.idempotency_key, fields.idempotency_key);
    assert.deepEqual(JSON.parse(made.body), {
      type: 'business',
      country: 'US',
      kyb: { legal_name: 'Acme Corp', ein: '[redacted]' },
    });
    assert.equal(replayed.body, made.body);
    assert.equal(refused.body, null, 'a refused form keeps nothing of what it carried');
    assert.ok(!JSON.stringify(log).includes(fields.csrf!), 'the CSRF token is in no entry');
    assert.ok(!JSON.stringify(log).includes('3456789'), 'nor the EIN');
    const account = (await call(server.url, 'GET', '/v1/fintech/accounts', { key })).body.data[0];
    assert.equal(account.kyb.ein_last4, '6789');
  });

  test('HTML in what a person typed is shown as text', async () => {
    const key = await server.key('act-escape');
    const cookie = await signIn(server.url, key);
    const page = await get(server.url, '/dashboard/api-keys', cookie);
    const name = '<img src=x onerror=alert(1)>"\'&';
    const made = await post(
      server.url,
      '/dashboard/api-keys',
      { ...hiddenFields(page.html, '/dashboard/api-keys'), name, mode: 'sandbox' },
      { cookie },
    );
    assert.equal(made.status, 200);
    const list = await get(server.url, '/dashboard/api-keys', cookie);
    assert.ok(!list.html.includes('<img src=x'), 'never as markup');
    assert.ok(list.html.includes('&lt;img src=x onerror=alert(1)&gt;&quot;&apos;&amp;'));
  });

  test('a sandbox session cannot mint a live key: the API’s 403, beside the mode', async () => {
    const key = await server.key('act-live');
    const cookie = await signIn(server.url, key);
    const page = await get(server.url, '/dashboard/api-keys', cookie);
    const refused = await post(
      server.url,
      '/dashboard/api-keys',
      { ...hiddenFields(page.html, '/dashboard/api-keys'), mode: 'live' },
      { cookie },
    );
    assert.equal(refused.status, 403);
    assert.match(refused.html, /id="f-mode-error">A sandbox key cannot create a live key/);
  });
});

describe('dashboard lists', () => {
  const server = useServer();

  test('page with the API’s cursors: older, then newer, never skipping or repeating', async () => {
    const key = await server.key('list-pages');
    const ids: string[] = [];
    for (let i = 0; i < 13; i++)
      ids.unshift(
        (await call(server.url, 'POST', '/v1/fintech/accounts', { key, json: { type: 'business', country: 'US' } }))
          .body.id,
      );
    const cookie = await signIn(server.url, key);
    const shown = (html: string) => [...html.matchAll(/href="\/dashboard\/accounts\/(acct_\w+)"/g)].map((m) => m[1]);
    const link = (html: string, label: string) =>
      new RegExp(`href="([^"]+)">${label}`).exec(html)?.[1]?.replace(/&amp;/g, '&');
    const first = await get(server.url, '/dashboard/accounts', cookie);
    assert.deepEqual(shown(first.html), ids.slice(0, 10), 'newest first, the API’s default page of 10');
    assert.equal(link(first.html, '← Newer'), undefined);
    const older = await get(server.url, link(first.html, 'Older →')!, cookie);
    assert.deepEqual(shown(older.html), ids.slice(10));
    assert.equal(link(older.html, 'Older →'), undefined, 'the last page');
    const back = await get(server.url, link(older.html, '← Newer')!, cookie);
    assert.deepEqual(shown(back.html), ids.slice(0, 10));
  });
});

describe('dashboard rate limits', () => {
  const server = useServer({ RATE_LIMIT_SANDBOX: '3' });

  test('every request of a session spends its key’s budget, the same one the API spends', async () => {
    const key = await server.key('act-rate');
    const cookie = await signIn(server.url, key); // one request of the key's three
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof get>> | undefined;
    for (let i = 0; i < 10 && limited === undefined; i++) {
      const page = await get(server.url, '/dashboard/accounts', cookie);
      statuses.push(page.status);
      if (page.status === 429) limited = page;
    }
    assert.ok(limited, `a 429 within ten pages: ${statuses}`);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.match(limited.html, /rate_limited/);
    assert.match(limited.headers.get('ratelimit-policy') ?? '', /q=3/);
    assert.equal((await call(server.url, 'GET', '/v1/fintech/accounts', { key })).status, 429, 'the API shares it');
  });
});
