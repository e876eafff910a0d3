/**
 * Correcting a transfer (docs/api.md#correcting-a-transfer): a posted transfer is reversed, all or in parts, never
 * beyond what was posted; the money goes back with a journal of its own, linked to the transfer; the ledger, the
 * events and `ledger verify` agree; the database refuses what the application must never do.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { run } from '../../helpers/process.ts';
import { call, useServer } from '../../helpers/server.ts';

const TRANSFERS = '/v1/fintech/transfers';

describe(`transfer reversals (${BACKEND})`, () => {
  const server = useServer();

  async function setup(org: string) {
    const key = await server.key(org);
    const m = money(server.url, key);
    const [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 10_000);
    const post = (path: string, json?: unknown, headers: Record<string, string> = {}) =>
      call(server.url, 'POST', path, { key, headers, ...(json === undefined ? {} : { json }) });
    const current = async (id: string) => (await m.get(`/v1/fintech/accounts/${id}`)).current_balance.amount;
    return { key, m, a, b, post, current };
  }

  test('a posted transfer is reversed in parts, then in full by default; its amount_reversed and reversed follow', async () => {
    const { m, a, b, post, current } = await setup('reverse-parts');
    const t = await m.transfer(a, b, 3000);
    assert.equal(t.amount_reversed, 0);
    assert.equal(t.reversed, false);
    const first = await post(`${TRANSFERS}/${t.id}/reversals`, { amount: 1000, description: 'Refund: one item' });
    assert.equal(first.status, 200, first.text);
    assert.match(first.body.id, /^trr_/);
    assert.deepEqual(
      { ...first.body, id: undefined, created_at: undefined },
      {
        id: undefined,
        object: 'fintech.transfer_reversal',
        transfer_id: t.id,
        amount: 1000,
        currency: 'USD',
        description: 'Refund: one item',
        metadata: {},
        livemode: false,
        created_at: undefined,
      },
    );
    assert.equal(await current(a), 8000);
    assert.equal(await current(b), 2000);
    const tooMuch = await post(`${TRANSFERS}/${t.id}/reversals`, { amount: 2001 });
    assertProblem(tooMuch, 'parameter_invalid', 'amount');
    assert.match(tooMuch.body.detail, /1 to 2000/);
    const rest = await post(`${TRANSFERS}/${t.id}/reversals`);
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.body.amount, 2000);
    const after = await m.get(`${TRANSFERS}/${t.id}`);
    assert.equal(after.amount_reversed, 3000);
    assert.equal(after.reversed, true);
    assert.equal(after.status, 'posted');
    assert.equal(await current(a), 10_000);
    assert.equal(await current(b), 0);
    const again = await post(`${TRANSFERS}/${t.id}/reversals`, { amount: 1 });
    assertProblem(again, 'transfer_not_reversible', 'id');
    assert.match(again.body.detail, /fully reversed/);
    // Both reversals, newest first, and each by id under its transfer only.
    const list = await m.get(`${TRANSFERS}/${t.id}/reversals`);
    assert.deepEqual(
      list.data.map((r: { id: string }) => r.id),
      [rest.body.id, first.body.id],
    );
    assert.equal((await m.get(`${TRANSFERS}/${t.id}/reversals/${first.body.id}`)).amount, 1000);
    const other = await m.transfer(a, b, 10);
    const wrong = await call(server.url, 'GET', `${TRANSFERS}/${other.id}/reversals/${first.body.id}`, {
      key: (await setup('unused')).key,
    });
    assertProblem(wrong, 'resource_not_found');
  });

  test('each side gets a transaction of source transfer_reversal, and the events tell it all', async () => {
    const { m, a, b, post } = await setup('reverse-ledger');
    const t = await m.transfer(a, b, 2500);
    const r = (await post(`${TRANSFERS}/${t.id}/reversals`, { amount: 500 })).body;
    const ofB = await m.get(`/v1/fintech/accounts/${b}/transactions`);
    assert.deepEqual(ofB.data[0].source, { type: 'transfer_reversal', id: r.id });
    assert.equal(ofB.data[0].amount, -500);
    assert.equal(ofB.data[0].balance_after, 2000);
    const ofA = await m.get(`/v1/fintech/accounts/${a}/transactions`);
    assert.deepEqual(ofA.data[0].source, { type: 'transfer_reversal', id: r.id });
    assert.equal(ofA.data[0].amount, 500);
    const events = (await m.get('/v1/events?limit=5')).data.reverse().slice(-4);
    assert.deepEqual(
      events.map((e: { type: string }) => e.type),
      [
        'fintech.transfer_reversal.created',
        'fintech.transfer.updated',
        'fintech.transaction.created',
        'fintech.transaction.created',
      ],
    );
    assert.equal(events[1].data.object.amount_reversed, 500);
    assert.equal(events[0].data.object.id, r.id);
  });

  test('the receiver must have the amount available; a frozen side refuses; nothing is written', async () => {
    const { m, a, b, post, current } = await setup('reverse-refused');
    const t = await m.transfer(a, b, 3000);
    await m.transfer(b, a, 2500); // b now holds 500
    const short = await post(`${TRANSFERS}/${t.id}/reversals`, { amount: 1000 });
    assertProblem(short, 'insufficient_funds', 'to_account_id');
    assert.match(short.body.detail, new RegExp(`${b} has 500 USD`));
    await m.post(`/v1/fintech/accounts/${a}/freeze`, { reason: 'suspected_fraud' });
    const frozen = await post(`${TRANSFERS}/${t.id}/reversals`, { amount: 100 });
    assertProblem(frozen, 'account_frozen', 'from_account_id');
    assert.equal((await m.get(`${TRANSFERS}/${t.id}`)).amount_reversed, 0);
    assert.equal(await current(b), 500);
    assert.deepEqual((await m.get(`${TRANSFERS}/${t.id}/reversals`)).data, []);
  });

  test('only a posted transfer: pending and voided ones are refused; a partly posted one reverses what was posted', async () => {
    const { m, a, b, post } = await setup('reverse-pending');
    const hold = await m.post(TRANSFERS, {
      from_account_id: a,
      to_account_id: b,
      amount: 4000,
      currency: 'USD',
      pending: true,
    });
    const pending = await post(`${TRANSFERS}/${hold.id}/reversals`);
    assertProblem(pending, 'transfer_not_reversible', 'id');
    assert.match(pending.body.detail, /is pending; only a posted transfer/);
    await m.post(`${TRANSFERS}/${hold.id}/post`, { amount: 1500 });
    const beyond = await post(`${TRANSFERS}/${hold.id}/reversals`, { amount: 1501 });
    assertProblem(beyond, 'parameter_invalid', 'amount');
    const all = await post(`${TRANSFERS}/${hold.id}/reversals`);
    assert.equal(all.body.amount, 1500);
    const voided = await m.post(TRANSFERS, {
      from_account_id: a,
      to_account_id: b,
      amount: 10,
      currency: 'USD',
      pending: true,
    });
    await m.post(`${TRANSFERS}/${voided.id}/void`, {});
    assertProblem(await post(`${TRANSFERS}/${voided.id}/reversals`), 'transfer_not_reversible', 'id');
  });

  test('a retry with the same Idempotency-Key reverses once; another org sees nothing', async () => {
    const { m, a, b, post, current } = await setup('reverse-idem');
    const t = await m.transfer(a, b, 1000);
    const headers = { 'idempotency-key': randomUUID() };
    const first = await post(`${TRANSFERS}/${t.id}/reversals`, { amount: 400 }, headers);
    const replay = await post(`${TRANSFERS}/${t.id}/reversals`, { amount: 400 }, headers);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.text, first.text);
    assert.equal(await current(b), 600);
    const stranger = (await setup('reverse-stranger')).post;
    assertProblem(await stranger(`${TRANSFERS}/${t.id}/reversals`), 'resource_not_found');
  });

  test('the database refuses more reversed than posted and any edit of a reversal; ledger verify checks it all', async () => {
    const { m, a, b, post } = await setup('reverse-db');
    const t = await m.transfer(a, b, 700);
    const r = (await post(`${TRANSFERS}/${t.id}/reversals`, { amount: 200 })).body;
    const db = server.database;
    await assert.rejects(
      db.write((trx) => sql`update transfers set amount_reversed = 701 where id = ${t.id}`.execute(trx)),
      /transfers_reversed_bounded|constraint|CHECK/i,
    );
    await assert.rejects(
      db.write((trx) => sql`update transfer_reversals set amount = 1 where id = ${r.id}`.execute(trx)),
      /append-only/,
    );
    const verify = await run(['src/cli/main.ts', 'ledger', 'verify'], { DATABASE_URL: server.databaseUrl });
    assert.equal(verify.code, 0, verify.stdout);
    assert.match(verify.stdout, /amount_reversed is the sum of its reversals.*\(\d+ checked\)/);
    assert.match(verify.stdout, /every reversal's journal moves its amount back.*\([1-9]\d* checked\)/);
    // Behind the ledger's back: a reversal whose transfer does not count it is named.
    await db.write((trx) =>
      sql`drop trigger ${sql.raw(BACKEND === 'postgres' ? 'transfers_guard on transfers' : 'transfers_guard')}`.execute(
        trx,
      ),
    );
    await db.write((trx) => sql`update transfers set amount_reversed = 0 where id = ${t.id}`.execute(trx));
    const bad = await run(['src/cli/main.ts', 'ledger', 'verify'], { DATABASE_URL: server.databaseUrl });
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, new RegExp(`VIOLATION.*amount_reversed[\\s\\S]*${t.id}`));
  });
});
