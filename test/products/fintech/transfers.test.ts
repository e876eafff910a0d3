import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

const TRANSFERS = '/v1/fintech/transfers';
const MAX = 9007199254740991;

describe('transfers (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations)', () => {
  const server = useServer();
  let key: string;
  let m: ReturnType<typeof money>;
  let a: string;
  let b: string;
  const post = (json: unknown, headers: Record<string, string> = {}) =>
    call(server.url, 'POST', TRANSFERS, { key, json, headers });
  const body = (over: Record<string, unknown> = {}) => ({
    from_account_id: a,
    to_account_id: b,
    amount: 100,
    currency: 'USD',
    ...over,
  });

  before(async () => {
    key = await server.key('acme');
    m = money(server.url, key);
    [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 10_000);
  });

  test('a transfer is posted at once and both balances move', async () => {
    const reply = await post(body({ amount: 2500, description: '  Invoice 2026-114 ' }));
    assert.equal(reply.status, 200, reply.text);
    const t = reply.body;
    assert.match(t.id, /^tr_[0-9A-Z]{26}$/);
    assert.deepEqual(
      { ...t, id: 'ID', created_at: 'T' },
      {
        id: 'ID',
        object: 'fintech.transfer',
        from_account_id: a,
        to_account_id: b,
        amount: 2500,
        currency: 'USD',
        description: 'Invoice 2026-114',
        status: 'posted',
        pending: false,
        posted_amount: 2500,
        expires_at: null,
        resolved_at: null,
        amount_reversed: 0,
        reversed: false,
        metadata: {},
        livemode: false,
        created_at: 'T',
      },
    );
    assert.equal(await m.balance(a), 7500);
    assert.equal(await m.balance(b), 2500);
    assert.deepEqual(await m.get(`${TRANSFERS}/${t.id}`), t);
  });

  test('the same account twice is parameter_invalid on to_account_id', async () => {
    assertProblem(await post(body({ to_account_id: a })), 'parameter_invalid', 'to_account_id');
  });

  test('an account the key cannot see is 404 naming the side', async () => {
    const foreign = await money(server.url, await server.key('globex')).account();
    const live = await money(server.url, await server.key('acme', 'live')).account();
    for (const id of [foreign, live, 'acct_01ZZZZZZZZZZZZZZZZZZZZZZZZ', 'acct_nope']) {
      assertProblem(await post(body({ from_account_id: id })), 'resource_not_found', 'from_account_id');
      assertProblem(await post(body({ to_account_id: id })), 'resource_not_found', 'to_account_id');
    }
  });

  test('a currency other than either account’s is currency_mismatch naming the account', async () => {
    const gb = await m.account('GB');
    assertProblem(await post(body({ currency: 'EUR' })), 'currency_mismatch', 'from_account_id');
    assertProblem(await post(body({ to_account_id: gb })), 'currency_mismatch', 'to_account_id');
    const fromGb = await post(body({ from_account_id: gb, currency: 'GBP' }));
    assertProblem(fromGb, 'currency_mismatch', 'to_account_id');
  });

  test('more than is available is insufficient_funds, saying what is available; nothing moves', async () => {
    const before = await m.balance(a);
    const reply = await post(body({ amount: before + 1 }));
    assertProblem(reply, 'insufficient_funds', 'from_account_id');
    assert.match(reply.body.detail, new RegExp(`has ${before} USD`));
    assert.equal(await m.balance(a), before);
    const reverse = await post(body({ from_account_id: b, to_account_id: a, amount: MAX }));
    assertProblem(reverse, 'insufficient_funds', 'from_account_id');
  });

  test('amounts are integers from 1 to 2^53 − 1; fields are checked', async () => {
    for (const amount of [0, -5, 1.5, '100', MAX + 1, 1e300, null])
      assertProblem(await post(body({ amount })), 'parameter_invalid', 'amount');
    assertProblem(await post(body({ currency: 'usd' })), 'parameter_invalid', 'currency');
    assertProblem(await post(body({ description: 'x'.repeat(201) })), 'parameter_invalid', 'description');
    assertProblem(await post(body({ description: 'a\u0007b' })), 'parameter_invalid', 'description');
    const { amount: _, ...noAmount } = body();
    assertProblem(await post(noAmount), 'parameter_missing', 'amount');
    assertProblem(await post(body({ fee: 1 })), 'parameter_unknown', 'fee');
  });

  test('a retried transfer with the same Idempotency-Key moves money once', async () => {
    const start = await m.balance(a);
    const headers = { 'idempotency-key': 'transfer-retry-1' };
    const first = await post(body({ amount: 7 }), headers);
    const second = await post(body({ amount: 7 }), headers);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.text, first.text);
    assert.equal(await m.balance(a), start - 7);
    assertProblem(await post(body({ amount: 8 }), headers), 'idempotency_key_reused');
  });

  test('a big amount stays exact end to end; no balance passes 2^53 − 1, the system one included', async () => {
    const k = await server.key('whale');
    const w = money(server.url, k);
    const [x, y] = [await w.account(), await w.account()];
    await w.deposit(x, MAX);
    const t = await w.transfer(x, y, MAX - 1);
    assert.equal(t.amount, MAX - 1);
    assert.equal(await w.balance(y), MAX - 1);
    assert.equal(await w.balance(x), 1);
    // The system funding account is at −(2^53 − 1): one more deposit would pass the bound.
    const deposit = { key: k, json: { amount: 1 } };
    const more = await call(server.url, 'POST', `/v1/sandbox/fintech/accounts/${x}/deposits`, deposit);
    assertProblem(more, 'parameter_invalid', 'amount');
    // So the customer accounts of one org, mode and currency together never hold more than 2^53 − 1.
    await w.withdraw(x, 1);
    await w.deposit(y, 1);
    assert.equal(await w.balance(y), MAX);
  });

  test('listing: newest first, by account, with cursors; foreign cursor and account refused', async () => {
    const k = await server.key('lister');
    const l = money(server.url, k);
    const [p, q, r] = [await l.account(), await l.account(), await l.account()];
    await l.deposit(p, 100);
    const ids = [];
    for (const to of [q, r, q]) ids.push((await l.transfer(p, to, 10)).id);
    await l.transfer(q, r, 5);
    const list = (query: string) => call(server.url, 'GET', `${TRANSFERS}${query}`, { key: k });
    assert.deepEqual(
      (await list(`?account_id=${p}`)).body.data.map((t: { id: string }) => t.id),
      [...ids].reverse(),
    );
    const page = (await list(`?account_id=${p}&limit=2`)).body;
    assert.equal(page.has_more, true);
    const next = (await list(`?account_id=${p}&limit=2&starting_after=${page.data[1].id}`)).body;
    assert.deepEqual(
      next.data.map((t: { id: string }) => t.id),
      [ids[0]],
    );
    assert.equal(next.has_more, false);
    const back = (await list(`?account_id=${p}&ending_before=${ids[0]}`)).body;
    assert.deepEqual(
      back.data.map((t: { id: string }) => t.id),
      [ids[2], ids[1]],
    );
    assert.equal((await list('')).body.data.length, 4);
    assertProblem(await list(`?account_id=${a}`), 'resource_not_found', 'account_id');
    const foreignTransfer = (await post(body({ amount: 1 }))).body.id;
    assertProblem(await list(`?starting_after=${foreignTransfer}`), 'parameter_invalid', 'starting_after');
    assertProblem(await call(server.url, 'GET', `${TRANSFERS}/${foreignTransfer}`, { key: k }), 'resource_not_found');
    assertProblem(await call(server.url, 'GET', `${TRANSFERS}/tr_nope`, { key: k }), 'resource_not_found');
  });
});
