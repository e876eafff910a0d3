/**
 * A lone UTF-16 surrogate (`"\ud800"` in JSON) in any string the API takes is 400 `parameter_invalid` naming the
 * field, on both backends (issue 30, findings 5 and 6): PostgreSQL answered 500 for one in metadata, and a webhook
 * URL holding one was stored with U+FFFD in its place while the answer showed the surrogate.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { illFormedInput } from '../../../src/platform/http/well-formed.ts';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, type Reply, useServer } from '../../helpers/server.ts';

const ACCOUNTS = '/v1/fintech/accounts';

describe(`lone surrogates are refused, naming the field (${BACKEND})`, () => {
  const server = useServer();
  let key: string;
  const post = (path: string, json: unknown) => call(server.url, 'POST', path, { key, json });
  const get = (path: string) => call(server.url, 'GET', path, { key });
  before(async () => {
    key = await server.key('surrogates');
  });

  function refused(reply: Reply, param: string): void {
    assertProblem(reply, 'parameter_invalid', param);
    assert.match(reply.body.detail, /lone UTF-16 surrogate/);
    assert.ok(reply.text.isWellFormed(), 'the answer carries no lone surrogate itself');
  }

  test('in metadata on account create, account update and transfer create; as a value or a key', async () => {
    const m = money(server.url, key);
    const [from, to] = [await m.account(), await m.account()];
    await m.deposit(from, 100);
    const before = (await get(`${ACCOUNTS}?limit=100`)).body.data.length;
    const account = { type: 'business', country: 'US' };
    refused(await post(ACCOUNTS, { ...account, metadata: { a: 'x\ud800y' } }), 'metadata.a');
    refused(await post(ACCOUNTS, { ...account, metadata: { ok: 'z', b: '\udfff' } }), 'metadata.b');
    refused(await post(ACCOUNTS, { ...account, metadata: { 'k\udc00': 'v' } }), 'metadata.k\ufffd');
    refused(await post(`${ACCOUNTS}/${from}`, { metadata: { a: 'x\ud800y' } }), 'metadata.a');
    const transfer = { from_account_id: from, to_account_id: to, amount: 10, currency: 'USD' };
    refused(await post('/v1/fintech/transfers', { ...transfer, metadata: { a: 'x\ud800y' } }), 'metadata.a');
    refused(await post(ACCOUNTS, { ...account, kyb: { legal_name: 'A\ud800', ein: '12-3456789' } }), 'kyb.legal_name');
    // An unknown field holding one is refused for the surrogate all the same: nothing the API takes holds one.
    refused(await post(ACCOUNTS, { ...account, deep: [{ x: ['ok', '\ud800'] }] }), 'deep.0.x.1');
    assert.equal((await get(`${ACCOUNTS}?limit=100`)).body.data.length, before, 'no account was made');
    assert.deepEqual((await get(`${ACCOUNTS}/${from}`)).body.metadata, {}, 'the update changed nothing');
    assert.equal((await get(`/v1/fintech/transfers?account_id=${from}`)).body.data.length, 0, 'no transfer');
  });

  test('a surrogate pair is one character, and is kept as sent', async () => {
    const made = await post(ACCOUNTS, {
      type: 'business',
      country: 'US',
      metadata: { 'e\ud83d\ude00': '\ud83d\ude00' },
    });
    assert.equal(made.status, 200, made.text);
    assert.deepEqual((await get(`${ACCOUNTS}/${made.body.id}`)).body.metadata, { 'e😀': '😀' });
  });

  test('a webhook URL holding one is refused, on create and on update, and nothing is stored (finding 6)', async () => {
    const url = 'http://127.0.0.1:4000/hook';
    refused(await post('/v1/webhook_endpoints', { url: `${url}?q=\ud800`, enabled_events: ['*'] }), 'url');
    assert.deepEqual((await get('/v1/webhook_endpoints')).body.data, []);
    const made = await post('/v1/webhook_endpoints', { url, enabled_events: ['*'] });
    assert.equal(made.status, 200, made.text);
    refused(await post(`/v1/webhook_endpoints/${made.body.id}`, { url: `${url}?q=\ud800` }), 'url');
    assert.equal((await get(`/v1/webhook_endpoints/${made.body.id}`)).body.url, url);
  });

  test('in a query string or a path: named as the client writes it (reached from a parsed URL only)', () => {
    // Over HTTP a URL is bytes, and `%ED%A0%80` decodes to no surrogate: the rule holds for any parser all the same.
    const as = (query: unknown, params: unknown = {}) => illFormedInput({ body: undefined, query, params } as never);
    assert.equal(as({ limit: '1', metadata: { a: 'x\ud800' } })?.param, 'metadata[a]');
    assert.equal(as({ status: ['ok', '\udc00'] })?.param, 'status[1]');
    assert.equal(as({}, { id: 'acct_\ud800' })?.param, 'id');
    assert.equal(as({ metadata: { a: '\ud83d\ude00' } }), null);
  });
});
