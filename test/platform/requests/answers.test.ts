import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checksum } from '../../../src/platform/auth/key-format.ts';
import { get, hiddenFields, post, signIn } from '../../helpers/dashboard.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { entryOf } from '../../helpers/request-log.ts';
import { useServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

const ACCOUNT = { type: 'business', country: 'US' };
const idOf = (reply: { headers: Headers }) => reply.headers.get('request-id')!;

// Issue 34, point 2: the log shows what the server answered, not only what it was asked.
describe('the request log keeps the answer (docs/api.md#the-request-log)', () => {
  const server = useServer();

  test('a create keeps the JSON the server sent; a successful read, a HEAD and a read of the log keep none', async () => {
    const api = await client(server, 'answer-create');
    const created = await api.post('/v1/fintech/accounts', { ...ACCOUNT, metadata: { order: '6735' } });
    assert.equal(created.status, 200, created.text);
    const read = await api.get(`/v1/fintech/accounts/${created.body.id}`);
    const head = await fetch(`${server.url}/v1/fintech/accounts`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${api.key}` },
    });
    const logRead = await api.get('/v1/requests');
    for (const [reply, text] of [
      [created, created.text],
      [read, null], // a successful read can be read again (docs/api.md#the-request-log, issue 40 item 9)
      [head, null],
      [logRead, null], // the log's own answers are entries already kept
    ] as const) {
      const entry = await entryOf(api, idOf(reply));
      assert.equal(entry.response_body, text, `${entry.method} ${entry.path}`);
      assert.deepEqual([entry.response_truncated, entry.error_detail, entry.error_param], [false, null, null]);
    }
  });

  test('an error keeps the problem, its detail and its param', async () => {
    const api = await client(server, 'answer-error');
    const account = (await api.post('/v1/fintech/accounts', ACCOUNT)).body.id;
    const invalid = await api.post(`/v1/fintech/accounts/${account}/freeze`, { reason: 'boredom' });
    assertProblem(invalid, 'parameter_invalid', 'reason');
    const missing = await api.get('/v1/fintech/transfers/tr_01KAPQ9R3V2W3X4Y5Z6A7B8C9D');
    assert.equal(missing.status, 404);
    await api.post(`/v1/fintech/accounts/${account}/close`, { reason: 'other' });
    const closed = await api.post(`/v1/fintech/accounts/${account}/freeze`, { reason: 'other' });
    assert.equal(closed.status, 409, closed.text);
    for (const reply of [invalid, missing, closed]) {
      const entry = await entryOf(api, idOf(reply));
      assert.deepEqual(JSON.parse(entry.response_body), reply.body);
      assert.equal(entry.error_detail, reply.body.detail);
      assert.equal(entry.error_param, reply.body.param ?? null);
    }
    assert.equal((await entryOf(api, idOf(invalid))).error_param, 'reason');
    assert.match((await entryOf(api, idOf(closed))).error_detail, /closed/);
  });

  test('secrets in an answer are redacted as in a request, and never reach the table', async () => {
    const api = await client(server, 'answer-secrets');
    const key = await api.post('/v1/api_keys', { name: 'made here' });
    assert.match(key.body.key, /^sk_test_/);
    const hook = await api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'] });
    assert.match(hook.body.secret, /^whsec_/);
    const live = `sk_live_${'Q'.repeat(32)}`;
    // Metadata refuses a key (docs/api.md#metadata-your-own-references); a nickname is free text and takes one.
    const pasted = { nickname: `call ${live + checksum(live)}`, metadata: { tax: 'EIN 98-7654329' } };
    const account = await api.post('/v1/fintech/accounts', { ...ACCOUNT, ...pasted });
    assert.equal(account.status, 200, account.text);
    const kept = async (reply: { headers: Headers }) => JSON.parse((await entryOf(api, idOf(reply))).response_body);
    assert.deepEqual(await kept(key), { ...key.body, key: '[redacted]' });
    assert.deepEqual(await kept(hook), { ...hook.body, secret: '[redacted]' });
    const redacted = { nickname: 'call sk_live_[redacted]', metadata: { tax: 'EIN [redacted EIN]' } };
    assert.deepEqual(await kept(account), { ...account.body, ...redacted });
    // The table itself, read directly: the redacted answers are there, the secrets nowhere.
    const rows = await server.database.db
      .selectFrom('request_logs')
      .select(['response_body', 'error_detail', 'body'])
      .execute();
    assert.ok(rows.some((r) => r.response_body?.includes('"key":"[redacted]"')));
    const text = JSON.stringify(rows);
    for (const secret of [key.body.key.slice(8), hook.body.secret.slice(6), 'QQQQQQQQ', '7654329'])
      assert.ok(!text.includes(secret), `a row holds ${secret.slice(0, 12)}…`);
  });

  test('an answer over 8 KiB is cut at 8 KiB of UTF-8, on a character boundary, and marked', async () => {
    const api = await client(server, 'answer-big');
    const metadata = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, `a${'€'.repeat(250)}`]));
    const created = await api.post('/v1/fintech/accounts', { ...ACCOUNT, metadata });
    assert.equal(created.status, 200, created.text);
    assert.ok(Buffer.byteLength(created.text) > 9000);
    const entry = await entryOf(api, idOf(created));
    assert.equal(entry.response_truncated, true);
    const bytes = Buffer.byteLength(entry.response_body);
    assert.ok(bytes <= 8192 && bytes > 8189, `${bytes} bytes kept`);
    assert.ok(created.text.startsWith(entry.response_body), 'the first 8 KiB, as sent');
    const small = await api.get(`/v1/fintech/accounts/${created.body.id}/transactions`);
    assert.equal((await entryOf(api, idOf(small))).response_truncated, false);
  });

  test('a dashboard action is recorded under the API operation it stands for, with its answer', async () => {
    const api = await client(server, 'answer-dashboard');
    const [a, b] = [
      (await api.post('/v1/fintech/accounts', ACCOUNT)).body.id,
      (await api.post('/v1/fintech/accounts', ACCOUNT)).body.id,
    ];
    await api.post(`/v1/sandbox/fintech/accounts/${a}/deposits`, { amount: 10_000 });
    const cookie = await signIn(server.url, api.key);
    const form = await get(server.url, '/dashboard/transfers/new', cookie);
    const fields = { from_account_id: a, to_account_id: b, currency: 'USD', amount: '12.34' };
    const sent = await post(
      server.url,
      '/dashboard/transfers',
      { ...hiddenFields(form.html, '/dashboard/transfers'), ...fields },
      { cookie },
    );
    assert.equal(sent.status, 303, sent.html.slice(0, 300));
    const transfer = sent.headers.get('location')!.match(/tr_[0-9A-Z]{26}/)![0];
    const page = await get(server.url, `/dashboard/accounts/${a}`, cookie);
    const freeze = `/dashboard/accounts/${a}/freeze`;
    const frozen = await post(server.url, freeze, { ...hiddenFields(page.html, freeze), reason: 'other' }, { cookie });
    assert.equal(frozen.status, 303);
    // A transfer from the frozen account, from a form of its own: refused.
    const other = await get(server.url, '/dashboard/transfers/new', cookie);
    const retry = { ...hiddenFields(other.html, '/dashboard/transfers'), ...fields };
    const again = await post(server.url, '/dashboard/transfers', retry, { cookie });
    assert.equal(again.status, 409, again.html.slice(0, 300));
    const keys = await get(server.url, '/dashboard/api-keys', cookie);
    const minted = await post(
      server.url,
      '/dashboard/api-keys',
      { ...hiddenFields(keys.html, '/dashboard/api-keys'), name: 'minted', mode: 'sandbox' },
      { cookie },
    );
    const secret = minted.html.match(/sk_test_[A-Za-z0-9]{38}/)![0];

    const made = await entryOf(api, idOf(sent));
    assert.deepEqual(
      [made.source, made.method, made.route, made.path],
      ['dashboard', 'POST', '/v1/fintech/transfers', '/v1/fintech/transfers'],
    );
    assert.equal(JSON.parse(made.body).amount, 1234);
    assert.equal(JSON.parse(made.response_body).id, transfer);
    const first = await entryOf(api, idOf(frozen));
    assert.deepEqual(
      [first.route, first.path],
      ['/v1/fintech/accounts/{id}/freeze', `/v1/fintech/accounts/${a}/freeze`],
    );
    assert.equal(JSON.parse(first.response_body).status, 'frozen');
    const refused = await entryOf(api, idOf(again));
    assert.deepEqual(
      [refused.route, refused.status, refused.error_code],
      ['/v1/fintech/transfers', 409, 'account_frozen'],
    );
    assert.ok(refused.error_detail.length > 0 && again.html.includes(refused.error_detail), refused.error_detail);
    const key = await entryOf(api, idOf(minted));
    assert.deepEqual([key.route, JSON.parse(key.response_body).key], ['/v1/api_keys', '[redacted]']);
    // The request's page shows the answer: the problem's detail, and the body pretty-printed.
    const shown = await get(server.url, `/dashboard/requests/${refused.id}`, cookie);
    assert.ok(shown.html.includes('<h2>Answer</h2>'));
    assert.ok(shown.html.includes(`<p class="problem">${refused.error_detail}`), shown.html);
    assert.ok(shown.html.includes('  &quot;code&quot;: &quot;account_frozen&quot;'), 'the problem, pretty-printed');
    const keyPage = await get(server.url, `/dashboard/requests/${key.id}`, cookie);
    assert.ok(keyPage.html.includes('&quot;key&quot;: &quot;[redacted]&quot;') && !keyPage.html.includes(secret));
    const rows = JSON.stringify(await server.database.db.selectFrom('request_logs').selectAll().execute());
    assert.ok(!rows.includes(secret.slice(8)), 'the minted key is in no row');
  });
});
