/**
 * What a reader of the request log sees (docs/api.md#the-request-log): bodies only where its key may read the route's
 * group (issue 39, item 3), the query string as sent, redacted, and a write's or a failure's answer but no successful
 * read's; `status` filters by class too (issue 40, item 9).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checksum } from '../../../src/platform/auth/key-format.ts';
import { BACKEND } from '../../helpers/database.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { allEntries, entryOf } from '../../helpers/request-log.ts';
import { call, useServer } from '../../helpers/server.ts';
import { type Client, client } from '../../helpers/webhooks.ts';

const idOf = (reply: { headers: Headers }) => reply.headers.get('request-id')!;

describe(`the request log as its readers see it (${BACKEND})`, () => {
  const server = useServer();

  /** A key of the same org as `full`, holding `permissions`, as a Client. */
  async function restricted(full: Client, permissions: Record<string, string>): Promise<Client> {
    const made = await full.post('/v1/api_keys', { permissions });
    assert.equal(made.status, 200, made.text);
    const key: string = made.body.key;
    return {
      key,
      post: (path, json = {}, headers = {}) => call(server.url, 'POST', path, { key, json, headers }),
      get: (path) => call(server.url, 'GET', path, { key }),
      del: (path) => call(server.url, 'DELETE', path, { key }),
    };
  }

  test('a key sees bodies only of routes whose group it may read; else both are null and bodies_hidden', async () => {
    // Before, a key with only `requests: read` read the request and answer of a full key's account create (legal
    // name, balances, metadata).
    const full = await client(server, 'readers-hidden');
    const account = {
      type: 'business',
      country: 'US',
      kyb: { legal_name: 'Hidden Holdings LLC', ein: '12-3456789' },
      metadata: { o: '1' },
    };
    const created = await full.post('/v1/fintech/accounts', account);
    assert.equal(created.status, 200, created.text);
    const refused = await full.post(`/v1/fintech/accounts/${created.body.id}/freeze`, { reason: 'boredom' });
    assertProblem(refused, 'parameter_invalid', 'reason');
    const logOnly = await restricted(full, { requests: 'read' });
    const accountsReader = await restricted(full, { requests: 'read', accounts: 'read' });

    for (const id of [idOf(created), idOf(refused)]) {
      const hidden = await entryOf(logOnly, id);
      assert.deepEqual([hidden.body, hidden.response_body, hidden.bodies_hidden], [null, null, true]);
      assert.equal(hidden.body_truncated, false);
      const shown = await entryOf(accountsReader, id);
      assert.equal(shown.bodies_hidden, false);
      assert.notEqual(shown.body, null);
      assert.notEqual(shown.response_body, null);
      assert.deepEqual(await entryOf(full, id), shown, 'a full key sees what a key that may read accounts sees');
    }
    assert.match((await entryOf(accountsReader, idOf(created))).response_body, /Hidden Holdings LLC/);
    // The rest of the entry stays: what was asked, and why it failed.
    const why = await entryOf(logOnly, idOf(refused));
    assert.deepEqual([why.error_code, why.error_param], ['parameter_invalid', 'reason']);
    // The list shows the same.
    const listed = await allEntries(logOnly);
    const mine = listed.filter((e) => e.route.startsWith('/v1/fintech/accounts'));
    assert.ok(mine.length >= 2);
    for (const entry of mine)
      assert.deepEqual([entry.body, entry.response_body, entry.bodies_hidden], [null, null, true]);
    assert.ok(!JSON.stringify(listed).includes('Hidden Holdings'), 'no body of an accounts route in the list');
    // The key's own creations (api_keys: none for these readers) are hidden from them too.
    const keyCreate = listed.find((e) => e.route === '/v1/api_keys' && e.method === 'POST');
    assert.equal(keyCreate.bodies_hidden, true);
  });

  test('an entry keeps the query string, redacted; a successful read keeps no answer, a failed one does', async () => {
    // Before, the query string was dropped (a failed GET showed why, not what was sent).
    const api = await client(server, 'readers-query');
    const live = `sk_live_${'Q'.repeat(32)}`;
    const key = live + checksum(live.slice(8));
    const ok = await api.get('/v1/fintech/accounts?limit=2');
    assert.equal(ok.status, 200);
    const bad = await api.get(`/v1/fintech/accounts?limit=zz&api_key=plain-secret&note=${key}`);
    assert.equal(bad.status, 400, bad.text);
    const okEntry = await entryOf(api, idOf(ok));
    assert.deepEqual([okEntry.path, okEntry.query, okEntry.response_body], ['/v1/fintech/accounts', 'limit=2', null]);
    const badEntry = await entryOf(api, idOf(bad));
    assert.equal(badEntry.query, 'limit=zz&api_key=[redacted]&note=sk_live_[redacted]');
    assert.deepEqual(JSON.parse(badEntry.response_body).code, bad.body.code);
    const none = await entryOf(api, idOf(await api.get('/v1/fintech/accounts')));
    assert.equal(none.query, null);
    const rows = JSON.stringify(await server.database.db.selectFrom('request_logs').select('query').execute());
    for (const secret of ['plain-secret', key.slice(8)]) assert.ok(!rows.includes(secret), `a row holds ${secret}`);
  });

  test('status filters take a class: 2xx, 4xx, 5xx, in either case; anything else is refused saying what to send', async () => {
    // Before, `status=4xx` was refused (400: status must be a whole number).
    const api = await client(server, 'readers-status');
    const ok = idOf(await api.get('/v1/fintech/accounts'));
    const invalid = idOf(await api.get('/v1/fintech/accounts?limit=zz'));
    const missing = idOf(await api.get('/v1/fintech/transfers/tr_01KAPQ9R3V2W3X4Y5Z6A7B8C9D'));
    const created = idOf(await api.post('/v1/fintech/accounts', { type: 'business', country: 'US' }));
    for (const id of [ok, invalid, missing, created]) await entryOf(api, id);
    const found = async (status: string, within: (s: number) => boolean) => {
      const entries = await allEntries(api, `&status=${status}`);
      for (const e of entries) assert.ok(within(e.status), `${status} listed a ${e.status}`);
      return new Set(entries.map((e) => e.id));
    };
    const fourXX = await found('4xx', (s) => s >= 400 && s < 500);
    assert.ok(fourXX.has(invalid) && fourXX.has(missing) && !fourXX.has(ok) && !fourXX.has(created));
    assert.deepEqual(await found('4XX', (s) => s >= 400 && s < 500), fourXX);
    const twoXX = await found('2xx', (s) => s >= 200 && s < 300);
    assert.ok(twoXX.has(ok) && twoXX.has(created) && !twoXX.has(invalid));
    assert.equal((await found('5xx', () => false)).size, 0);
    const exact = await found('400', (s) => s === 400);
    assert.ok(exact.has(invalid) && !exact.has(missing));
    for (const bad of ['4x', '45', '600', 'xxx', '4xx0']) {
      const refused = await api.get(`/v1/requests?status=${bad}`);
      assertProblem(refused, 'parameter_invalid', 'status');
      assert.equal(refused.body.detail, 'status must look like 409 or 4xx.');
    }
  });
});
