import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { run } from '../../helpers/process.ts';
import { call, useServer } from '../../helpers/server.ts';

const ACCOUNTS = '/v1/fintech/accounts';

describe('account lifecycle (docs/api.md#account-lifecycle)', () => {
  const server = useServer();
  let key: string;
  let m: ReturnType<typeof money>;
  const post = (path: string, json?: unknown, k = key) =>
    call(server.url, 'POST', path, { key: k, ...(json === undefined ? {} : { json }) });
  const cli = (...args: string[]) =>
    run(['src/cli/main.ts', 'accounts', ...args], { DATABASE_URL: server.databaseUrl });

  before(async () => {
    key = await server.key('acme');
    m = money(server.url, key);
  });

  test('freeze sets frozen with status_details; again is 200 unchanged; unfreeze clears them', async () => {
    const id = await m.account();
    const frozen = await post(`${ACCOUNTS}/${id}/freeze`, { reason: 'compliance_review', note: 'KYB docs' });
    assert.equal(frozen.status, 200, frozen.text);
    assert.equal(frozen.body.status, 'frozen');
    assert.deepEqual(frozen.body.status_details, { reason: 'compliance_review', note: 'KYB docs', actor: 'api' });
    assert.equal(frozen.body.closed_at, null);
    const again = await post(`${ACCOUNTS}/${id}/freeze`, { reason: 'other' });
    assert.deepEqual(again.body, frozen.body, 'already frozen: unchanged, the first reason kept');
    const active = await post(`${ACCOUNTS}/${id}/unfreeze`);
    assert.equal(active.body.status, 'active');
    assert.equal(active.body.status_details, null);
    assert.deepEqual((await post(`${ACCOUNTS}/${id}/unfreeze`, {})).body, active.body);
  });

  test('freeze needs a known reason and a note of at most 500 characters', async () => {
    const id = await m.account();
    assertProblem(await post(`${ACCOUNTS}/${id}/freeze`, {}), 'parameter_missing', 'reason');
    assertProblem(await post(`${ACCOUNTS}/${id}/freeze`, { reason: 'bored' }), 'parameter_invalid', 'reason');
    const long = { reason: 'other', note: 'x'.repeat(501) };
    assertProblem(await post(`${ACCOUNTS}/${id}/freeze`, long), 'parameter_invalid', 'note');
    assert.equal((await post(`${ACCOUNTS}/${id}/freeze`, { reason: 'other', note: 'x'.repeat(500) })).status, 200);
  });

  test('a frozen account takes no credit and no debit', async () => {
    const [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 1000);
    await post(`${ACCOUNTS}/${b}/freeze`, { reason: 'suspected_fraud' });
    const transfer = { from_account_id: a, to_account_id: b, amount: 1, currency: 'USD' };
    assertProblem(await post('/v1/fintech/transfers', transfer), 'account_frozen', 'to_account_id');
    const back = { ...transfer, from_account_id: b, to_account_id: a };
    assertProblem(await post('/v1/fintech/transfers', back), 'account_frozen', 'from_account_id');
    assertProblem(await post(`/v1/sandbox/fintech/accounts/${b}/deposits`, { amount: 5 }), 'account_frozen', 'id');
    assertProblem(await post(`/v1/sandbox/fintech/accounts/${b}/withdrawals`, { amount: 5 }), 'account_frozen', 'id');
    assert.equal(await m.balance(a), 1000);
  });

  test('close needs both balances at 0; then it is final, readable, and refuses every change', async () => {
    const id = await m.account();
    await m.deposit(id, 250);
    const refused = await post(`${ACCOUNTS}/${id}/close`);
    assertProblem(refused, 'account_balance_nonzero');
    assert.match(refused.body.detail, /250 USD/);
    await m.withdraw(id, 250);
    const closed = await post(`${ACCOUNTS}/${id}/close`, { reason: 'customer_request', note: 'moving banks' });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.body.status, 'closed');
    assert.match(closed.body.closed_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);
    assert.deepEqual(closed.body.status_details, { reason: 'customer_request', note: 'moving banks', actor: 'api' });
    assert.deepEqual((await post(`${ACCOUNTS}/${id}/close`)).body, closed.body, 'closing twice: 200, unchanged');
    assertProblem(await post(`${ACCOUNTS}/${id}/freeze`, { reason: 'other' }), 'account_closed');
    assertProblem(await post(`${ACCOUNTS}/${id}/unfreeze`), 'account_closed');
    assertProblem(await post(`/v1/sandbox/fintech/accounts/${id}/deposits`, { amount: 5 }), 'account_closed', 'id');
    const other = await m.account();
    await m.deposit(other, 10);
    const transfer = { from_account_id: other, to_account_id: id, amount: 1, currency: 'USD' };
    assertProblem(await post('/v1/fintech/transfers', transfer), 'account_closed', 'to_account_id');
    assert.equal((await call(server.url, 'GET', `${ACCOUNTS}/${id}`, { key })).body.status, 'closed');
  });

  test('close without a body records reason other; a frozen account can be closed', async () => {
    const id = await m.account();
    await post(`${ACCOUNTS}/${id}/freeze`, { reason: 'customer_request' });
    const closed = await post(`${ACCOUNTS}/${id}/close`);
    assert.deepEqual(closed.body.status_details, { reason: 'other', note: null, actor: 'api' });
    assertProblem(await post(`${ACCOUNTS}/${id}/close`, { reason: 'nope' }), 'parameter_invalid', 'reason');
  });

  test('?status= filters the list; a bad status is parameter_invalid', async () => {
    const k = await server.key('filters');
    const f = money(server.url, k);
    const [a, b, c] = [await f.account(), await f.account(), await f.account()];
    await post(`${ACCOUNTS}/${b}/freeze`, { reason: 'other' }, k);
    await post(`${ACCOUNTS}/${c}/close`, undefined, k);
    const ids = async (q: string) =>
      (await call(server.url, 'GET', `${ACCOUNTS}${q}`, { key: k })).body.data.map((x: { id: string }) => x.id);
    assert.deepEqual(await ids('?status=active'), [a]);
    assert.deepEqual(await ids('?status=frozen'), [b]);
    assert.deepEqual(await ids('?status=closed'), [c]);
    assert.deepEqual(await ids(''), [c, b, a]);
    assert.deepEqual(await ids(`?status=active&starting_after=${c}`), [a]);
    assertProblem(await call(server.url, 'GET', `${ACCOUNTS}?status=open`, { key: k }), 'parameter_invalid', 'status');
  });

  test('lifecycle routes: unknown, foreign and other-mode accounts are 404', async () => {
    const foreign = await money(server.url, await server.key('globex')).account();
    const live = await money(server.url, await server.key('acme', 'live')).account();
    for (const id of [foreign, live, 'acct_01ZZZZZZZZZZZZZZZZZZZZZZZZ', 'nope']) {
      assertProblem(await post(`${ACCOUNTS}/${id}/freeze`, { reason: 'other' }), 'resource_not_found');
      assertProblem(await post(`${ACCOUNTS}/${id}/unfreeze`), 'resource_not_found');
      assertProblem(await post(`${ACCOUNTS}/${id}/close`), 'resource_not_found');
    }
  });

  test('operator CLI: an operator freeze cannot be lifted by an API key (403); the operator can', async () => {
    const id = await m.account();
    const frozen = await cli('freeze', id, '--reason', 'suspected_fraud', '--note', 'chargebacks');
    assert.equal(frozen.code, 0, frozen.stderr);
    assert.deepEqual(JSON.parse(frozen.stdout).status_details, {
      reason: 'suspected_fraud',
      note: 'chargebacks',
      actor: 'operator',
    });
    assertProblem(await post(`${ACCOUNTS}/${id}/unfreeze`), 'permission_denied');
    assert.equal((await call(server.url, 'GET', `${ACCOUNTS}/${id}`, { key })).body.status, 'frozen');
    const unfrozen = await cli('unfreeze', id);
    assert.equal(unfrozen.code, 0, unfrozen.stderr);
    assert.equal(JSON.parse(unfrozen.stdout).status, 'active');
    const closed = await cli('close', id, '--reason', 'compliance');
    assert.equal(JSON.parse(closed.stdout).status_details.actor, 'operator');
  });

  test('operator CLI: an unknown id and a non-zero balance exit 1, a bad reason 64, a bad note 65', async () => {
    const id = await m.account();
    await m.deposit(id, 1);
    assert.equal((await cli('freeze', id, '--reason', 'bored')).code, 64, 'EX_USAGE: not one of the choices');
    const note = await cli('freeze', id, '--reason', 'other', '--note', 'bell\u0007');
    assert.equal(note.code, 65, `EX_DATAERR: the API's rule for a note: ${note.stderr}`);
    assert.match(note.stderr, /^plinth: parameter_invalid: /);
    assert.equal((await cli('freeze', 'acct_01ZZZZZZZZZZZZZZZZZZZZZZZZ', '--reason', 'other')).code, 1);
    const nonzero = await cli('close', id);
    assert.equal(nonzero.code, 1);
    assert.match(nonzero.stderr, /account_balance_nonzero/);
    assert.equal((await cli('explode', id)).code, 64);
  });
});
