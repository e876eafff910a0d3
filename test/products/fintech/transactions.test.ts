import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

interface Txn {
  id: string;
  amount: number;
  balance_after: number;
  source: { type: string; id: string };
}

describe('transactions and sandbox simulations (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations)', () => {
  const server = useServer();
  let key: string;
  let m: ReturnType<typeof money>;
  const list = (id: string, query = '', k = key) =>
    call(server.url, 'GET', `/v1/fintech/accounts/${id}/transactions${query}`, { key: k });

  before(async () => {
    key = await server.key('acme');
    m = money(server.url, key);
  });

  test('a deposit and a withdrawal answer with the account’s transaction', async () => {
    const id = await m.account();
    const deposit = await m.deposit(id, 5000);
    assert.match(deposit.id, /^txn_[0-9A-Z]{26}$/);
    assert.equal(deposit.object, 'fintech.transaction');
    assert.equal(deposit.account_id, id);
    assert.equal(deposit.amount, 5000);
    assert.equal(deposit.balance_after, 5000);
    assert.equal(deposit.currency, 'USD');
    assert.equal(deposit.source.type, 'sandbox_deposit');
    assert.match(deposit.source.id, /^sdep_/);
    assert.equal(deposit.livemode, false);
    const withdrawal = await m.withdraw(id, 1200);
    assert.equal(withdrawal.amount, -1200);
    assert.equal(withdrawal.balance_after, 3800);
    assert.equal(withdrawal.source.type, 'sandbox_withdrawal');
    assert.match(withdrawal.source.id, /^swd_/);
    assert.deepEqual(await m.get(`/v1/fintech/transactions/${withdrawal.id}`), withdrawal);
  });

  test('a withdrawal of more than is available is insufficient_funds and writes nothing', async () => {
    const id = await m.account();
    await m.deposit(id, 10);
    const reply = await call(server.url, 'POST', `/v1/sandbox/fintech/accounts/${id}/withdrawals`, {
      key,
      json: { amount: 11 },
    });
    assertProblem(reply, 'insufficient_funds', 'id');
    assert.match(reply.body.detail, /has 10 USD/);
    assert.equal((await list(id)).body.data.length, 1);
  });

  test('simulations need a sandbox key: a live key is 403 whatever the account', async () => {
    const live = await server.key('acme', 'live');
    const liveAccount = await money(server.url, live).account();
    for (const kind of ['deposits', 'withdrawals']) {
      for (const id of [liveAccount, 'acct_01ZZZZZZZZZZZZZZZZZZZZZZZZ']) {
        const reply = await call(server.url, 'POST', `/v1/sandbox/fintech/accounts/${id}/${kind}`, {
          key: live,
          json: { amount: 1 },
        });
        assertProblem(reply, 'permission_denied');
      }
    }
  });

  test('simulations on an account the key cannot see are 404; amounts are checked', async () => {
    const foreign = await money(server.url, await server.key('globex')).account();
    const path = `/v1/sandbox/fintech/accounts/${foreign}/deposits`;
    assertProblem(await call(server.url, 'POST', path, { key, json: { amount: 1 } }), 'resource_not_found');
    const own = `/v1/sandbox/fintech/accounts/${await m.account()}/deposits`;
    for (const amount of [0, -1, 2.5, 9007199254740992])
      assertProblem(await call(server.url, 'POST', own, { key, json: { amount } }), 'parameter_invalid', 'amount');
  });

  test('an account’s transactions: newest first, each balance_after = previous + amount, cursors', async () => {
    const [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 1000);
    const t = await m.transfer(a, b, 300);
    await m.withdraw(a, 200);
    await m.transfer(b, a, 50);
    const all: Txn[] = (await list(a)).body.data;
    assert.deepEqual(
      all.map((x) => x.amount),
      [50, -200, -300, 1000],
    );
    const chronological = [...all].reverse();
    let balance = 0;
    for (const x of chronological) {
      balance += x.amount;
      assert.equal(x.balance_after, balance);
    }
    assert.equal(await m.balance(a), balance);
    const ofB: Txn[] = (await list(b)).body.data;
    assert.deepEqual(
      ofB.map((x) => [x.amount, x.balance_after]),
      [
        [-50, 250],
        [300, 300],
      ],
    );
    assert.equal(ofB[1]!.source.id, t.id);
    const page = (await list(a, '?limit=2')).body;
    assert.equal(page.has_more, true);
    const rest = (await list(a, `?limit=2&starting_after=${page.data[1].id}`)).body;
    assert.deepEqual(
      rest.data.map((x: Txn) => x.id),
      [all[2]!.id, all[3]!.id],
    );
    assert.equal(rest.has_more, false);
    const newer = (await list(a, `?ending_before=${all[2]!.id}&limit=1`)).body;
    assert.deepEqual(
      newer.data.map((x: Txn) => x.id),
      [all[1]!.id],
    );
    assert.equal(newer.has_more, true);
    // A cursor from another account's list is refused.
    assertProblem(await list(a, `?starting_after=${ofB[0]!.id}`), 'parameter_invalid', 'starting_after');
  });

  test('transactions of other orgs, other modes and the system side are never visible', async () => {
    const other = await server.key('initech');
    const o = money(server.url, other);
    const id = await o.account();
    const deposit = await o.deposit(id, 10);
    assertProblem(
      await call(server.url, 'GET', `/v1/fintech/transactions/${deposit.id}`, { key }),
      'resource_not_found',
    );
    assertProblem(await list(id), 'resource_not_found');
    assertProblem(await call(server.url, 'GET', '/v1/fintech/transactions/txn_x', { key }), 'resource_not_found');
    const system = await server.database.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('journal_id', '=', deposit.source.id)
      .where('account_id', '<>', id)
      .executeTakeFirstOrThrow();
    const reply = await call(server.url, 'GET', `/v1/fintech/transactions/${system.id}`, { key: other });
    assertProblem(reply, 'resource_not_found');
  });
});
