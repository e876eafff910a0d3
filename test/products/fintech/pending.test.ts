/**
 * Money that waits (docs/api.md#holding-money-pending-transfers-and-the-two-balances): a pending transfer holds its amount on the sender (available = current − held),
 * then is posted (all or part), voided, or expires; only a pending one moves; the ledger and `ledger verify` agree.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { ownerNow } from '../../../src/platform/clock/clock.ts';
import { expireDue } from '../../../src/products/fintech/transfers.expiry.ts';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { run } from '../../helpers/process.ts';
import { call, useServer } from '../../helpers/server.ts';

const TRANSFERS = '/v1/fintech/transfers';
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

describe(`pending transfers (${BACKEND})`, () => {
  const server = useServer({ TRANSFER_EXPIRY_SWEEP_SECONDS: '60' }, { clock });

  async function setup(org: string, funds = 10_000) {
    const key = await server.key(org);
    const m = money(server.url, key);
    const [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, funds);
    const post = (path: string, json?: unknown, headers: Record<string, string> = {}) =>
      call(server.url, 'POST', path, { key, headers, ...(json === undefined ? {} : { json }) });
    const hold = async (amount: number, extra: Record<string, unknown> = {}) => {
      const reply = await post(TRANSFERS, {
        from_account_id: a,
        to_account_id: b,
        amount,
        currency: 'USD',
        pending: true,
        ...extra,
      });
      assert.equal(reply.status, 200, reply.text);
      return reply.body;
    };
    const balances = async (id: string) => {
      const account = await m.get(`/v1/fintech/accounts/${id}`);
      return { available: account.available_balance.amount, current: account.current_balance.amount };
    };
    return { key, m, a, b, post, hold, balances };
  }

  test('a pending transfer holds its amount on the sender: available drops, current and the receiver do not', async () => {
    const { a, b, hold, balances, m } = await setup('pending-hold');
    const before = Date.now();
    const t = await hold(4000);
    assert.equal(t.status, 'pending');
    assert.equal(t.pending, true);
    assert.equal(t.posted_amount, null);
    assert.equal(t.resolved_at, null);
    const expires = Date.parse(t.expires_at);
    const week = 604_800_000;
    assert.ok(expires >= before + week - 60_000 && expires <= Date.now() + week, `default expiry: ${t.expires_at}`);
    assert.deepEqual(await balances(a), { available: 6000, current: 10_000 });
    assert.deepEqual(await balances(b), { available: 0, current: 0 });
    // No movement yet: no transaction on either side.
    assert.equal((await m.get(`/v1/fintech/accounts/${b}/transactions`)).data.length, 0);
  });

  test('insufficient_funds is judged on the available balance', async () => {
    const { a, b, post, hold } = await setup('pending-funds', 5000);
    await hold(4000);
    const refused = await post(TRANSFERS, { from_account_id: a, to_account_id: b, amount: 1001, currency: 'USD' });
    assertProblem(refused, 'insufficient_funds', 'from_account_id');
    assert.match(refused.body.detail, /has 1000 USD/);
    const second = await post(TRANSFERS, {
      from_account_id: a,
      to_account_id: b,
      amount: 1001,
      currency: 'USD',
      pending: true,
    });
    assertProblem(second, 'insufficient_funds', 'from_account_id');
  });

  test('posting part moves that part with a journal and two transactions; the rest returns to available', async () => {
    const { a, b, post, hold, balances, m } = await setup('pending-post');
    const t = await hold(4000);
    const posted = await post(`${TRANSFERS}/${t.id}/post`, { amount: 2500 });
    assert.equal(posted.status, 200, posted.text);
    assert.equal(posted.body.status, 'posted');
    assert.equal(posted.body.posted_amount, 2500);
    assert.equal(posted.body.amount, 4000);
    assert.ok(posted.body.resolved_at);
    assert.deepEqual(await balances(a), { available: 7500, current: 7500 });
    assert.deepEqual(await balances(b), { available: 2500, current: 2500 });
    const [credit] = (await m.get(`/v1/fintech/accounts/${b}/transactions`)).data;
    assert.deepEqual(
      [credit.amount, credit.balance_after, credit.source],
      [2500, 2500, { type: 'transfer', id: t.id }],
    );
    assert.equal((await m.get(`${TRANSFERS}/${t.id}`)).status, 'posted');
  });

  test('posting with no amount moves it all; the amount must be 1 to what it holds', async () => {
    const { a, b, post, hold, balances } = await setup('pending-post-all');
    const t = await hold(3000);
    assertProblem(await post(`${TRANSFERS}/${t.id}/post`, { amount: 3001 }), 'parameter_invalid', 'amount');
    assertProblem(await post(`${TRANSFERS}/${t.id}/post`, { amount: 0 }), 'parameter_invalid', 'amount');
    assertProblem(await post(`${TRANSFERS}/${t.id}/post`, { amount: 1.5 }), 'parameter_invalid', 'amount');
    const posted = await post(`${TRANSFERS}/${t.id}/post`);
    assert.equal(posted.body.posted_amount, 3000);
    assert.deepEqual(await balances(a), { available: 7000, current: 7000 });
    assert.deepEqual(await balances(b), { available: 3000, current: 3000 });
  });

  test('voiding releases the hold and moves nothing; only a pending transfer moves', async () => {
    const { a, post, hold, balances, m } = await setup('pending-void');
    const t = await hold(4000);
    const voided = await post(`${TRANSFERS}/${t.id}/void`);
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'voided');
    assert.equal(voided.body.posted_amount, null);
    assert.deepEqual(await balances(a), { available: 10_000, current: 10_000 });
    assert.equal((await m.get(`/v1/fintech/accounts/${a}/transactions`)).data.length, 1, 'the deposit only');
    const again = await post(`${TRANSFERS}/${t.id}/post`);
    assertProblem(again, 'transfer_not_pending', 'id');
    assert.match(again.body.detail, /is voided/);
    const plain = await post(TRANSFERS, {
      from_account_id: a,
      to_account_id: t.to_account_id,
      amount: 1,
      currency: 'USD',
    });
    assertProblem(await post(`${TRANSFERS}/${plain.body.id}/void`), 'transfer_not_pending', 'id');
  });

  test('past expires_at: refused with transfer_expired at once; the sweep then writes it, released, with its event', async () => {
    const { a, post, hold, balances, key } = await setup('pending-expiry');
    const t = await hold(4000, { expires_in_seconds: 60 });
    offsetMs = 61_000;
    try {
      assertProblem(await post(`${TRANSFERS}/${t.id}/post`), 'transfer_expired', 'id');
      assertProblem(await post(`${TRANSFERS}/${t.id}/void`), 'transfer_expired', 'id');
      assert.equal((await money(server.url, key).get(`${TRANSFERS}/${t.id}`)).status, 'pending', 'not swept yet');
      const deps = { db: server.database.db, clock, now: ownerNow(clock), events: server.app.events };
      const expired = await server.database.write((trx) => expireDue(deps, trx, 100));
      assert.ok(expired >= 1);
    } finally {
      offsetMs = 0;
    }
    const after = await money(server.url, key).get(`${TRANSFERS}/${t.id}`);
    assert.equal(after.status, 'expired');
    assert.equal(after.resolved_at, after.expires_at);
    assert.deepEqual(await balances(a), { available: 10_000, current: 10_000 });
    const events = await money(server.url, key).get('/v1/events?type=fintech.transfer.expired');
    assert.deepEqual(
      events.data.map((e: { data: { object: { id: string } } }) => e.data.object.id),
      [t.id],
    );
    assertProblem(await post(`${TRANSFERS}/${t.id}/post`), 'transfer_expired', 'id');
  });

  test('expires_in_seconds only with pending: true, 60 to 2592000', async () => {
    const { a, b, post } = await setup('pending-expiry-rules');
    const base = { from_account_id: a, to_account_id: b, amount: 1, currency: 'USD' };
    // Left out or false, in the schema (dependentSchemas) as in the detail the answer gives.
    for (const pending of [{}, { pending: false }]) {
      const reply = await post(TRANSFERS, { ...base, ...pending, expires_in_seconds: 3600 });
      assertProblem(reply, 'parameter_invalid', 'expires_in_seconds');
      assert.match(reply.body.detail, /send it with "pending": true, or leave it out/);
    }
    for (const bad of [59, 2_592_001, 3600.5])
      assertProblem(
        await post(TRANSFERS, { ...base, pending: true, expires_in_seconds: bad }),
        'parameter_invalid',
        'expires_in_seconds',
      );
  });

  test('the sandbox expires one now; a live key may not', async () => {
    const { post, hold, a, balances } = await setup('pending-simulated');
    const t = await hold(1000);
    const expired = await post(`/v1/sandbox/fintech/transfers/${t.id}/expire`);
    assert.equal(expired.status, 200, expired.text);
    assert.equal(expired.body.status, 'expired');
    assert.equal(expired.body.expires_at, expired.body.resolved_at);
    assert.deepEqual(await balances(a), { available: 10_000, current: 10_000 });
    assertProblem(await post(`${TRANSFERS}/${t.id}/post`), 'transfer_expired', 'id');
    const live = await server.key('pending-simulated', 'live');
    const refused = await call(server.url, 'POST', `/v1/sandbox/fintech/transfers/${t.id}/expire`, { key: live });
    assertProblem(refused, 'permission_denied');
  });

  test('a frozen or closed side refuses the post, which can still be voided; a sender holding money cannot close', async () => {
    const { a, b, post, hold } = await setup('pending-frozen');
    const t = await hold(1000);
    assert.equal((await post(`/v1/fintech/accounts/${b}/freeze`, { reason: 'other' })).status, 200);
    assertProblem(await post(`${TRANSFERS}/${t.id}/post`), 'account_frozen', 'to_account_id');
    const close = await post(`/v1/fintech/accounts/${a}/close`, {});
    assertProblem(close, 'account_balance_nonzero');
    assert.match(close.body.detail, /pending outgoing transfers holding 1000 USD/);
    assert.equal((await post(`${TRANSFERS}/${t.id}/void`)).body.status, 'voided');
  });

  test('events: created (pending), posted with each side transaction, voided; a replayed post answers byte for byte', async () => {
    const { post, hold, key } = await setup('pending-events');
    const t = await hold(2000);
    const idem = { 'idempotency-key': randomUUID() };
    const first = await post(`${TRANSFERS}/${t.id}/post`, { amount: 500 }, idem);
    const replay = await post(`${TRANSFERS}/${t.id}/post`, { amount: 500 }, idem);
    assert.equal(replay.text, first.text);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    const v = await hold(100);
    await post(`${TRANSFERS}/${v.id}/void`);
    const events = (await money(server.url, key).get('/v1/events?limit=100')).data as {
      type: string;
      data: { object: { id: string; status?: string } };
    }[];
    const of = (id: string) =>
      events
        .filter((e) => e.data.object.id === id)
        .map((e) => e.type)
        .reverse();
    assert.deepEqual(of(t.id), ['fintech.transfer.created', 'fintech.transfer.posted']);
    assert.deepEqual(of(v.id), ['fintech.transfer.created', 'fintech.transfer.voided']);
    assert.equal(events.filter((e) => e.type === 'fintech.transaction.created').length, 3, 'deposit + 2 sides');
  });

  test('the list filters by status; ledger verify checks every hold against the pending transfers', async () => {
    const { key, post, hold } = await setup('pending-list');
    const [p1, p2] = [await hold(100), await hold(200)];
    await post(`${TRANSFERS}/${p2.id}/void`);
    const m = money(server.url, key);
    assert.deepEqual(
      (await m.get(`${TRANSFERS}?status=pending`)).data.map((t: { id: string }) => t.id),
      [p1.id],
    );
    assert.deepEqual(
      (await m.get(`${TRANSFERS}?status=voided`)).data.map((t: { id: string }) => t.id),
      [p2.id],
    );
    const verify = await run(['src/cli/main.ts', 'ledger', 'verify'], { DATABASE_URL: server.databaseUrl });
    assert.equal(verify.code, 0, verify.stdout);
    assert.match(verify.stdout, /holds exactly what its pending outgoing transfers hold/);
  });

  test('a post racing a void: exactly one wins, the other gets 409, nothing moves twice', async () => {
    const { a, b, post, hold, balances } = await setup('pending-race');
    for (let i = 0; i < 8; i++) {
      const t = await hold(100);
      const [p, v] = await Promise.all([post(`${TRANSFERS}/${t.id}/post`), post(`${TRANSFERS}/${t.id}/void`)]);
      assert.deepEqual([p.status, v.status].sort(), [200, 409], `${p.text} ${v.text}`);
    }
    const [from, to] = [await balances(a), await balances(b)];
    assert.equal(from.available, from.current);
    assert.equal(from.current + to.current, 10_000);
  });

  test('a hold once answered as expired cannot be voided or posted, even after the clock stepped back', async () => {
    const { a, post, hold, m } = await setup('pending-sealed');
    const t = await hold(700, { expires_in_seconds: 60 });
    // Its expiry to the millisecond (the API shows the minute).
    const row = await server.database.db
      .selectFrom('transfers')
      .select('expires_at')
      .where('id', '=', t.id)
      .executeTakeFirstOrThrow();
    const expires = Date.parse(row.expires_at!);
    const balancesAt = (ms: number) => m.get(`/v1/fintech/accounts/${a}/balances?at=${new Date(ms).toISOString()}`);
    try {
      // Five seconds past its expiry, the balances a second after it: the hold is released by then.
      offsetMs += expires + 5000 - clock().getTime();
      const answered = await balancesAt(expires + 1000);
      assert.deepEqual([answered.current_balance.amount, answered.available_balance.amount], [10_000, 10_000]);
      // The clock steps back before the expiry: ending the hold now would hold the money over that second again.
      offsetMs -= 10_000;
      assertProblem(await post(`${TRANSFERS}/${t.id}/void`), 'transfer_expired', 'id');
      assertProblem(await post(`${TRANSFERS}/${t.id}/post`, { amount: 700 }), 'transfer_expired', 'id');
      offsetMs += 10_000; // back past the expiry, so that the second asked about is past again
      assert.deepEqual(await balancesAt(expires + 1000), answered, 'the answer about that second is the same');
    } finally {
      offsetMs = 0;
    }
  });
});
