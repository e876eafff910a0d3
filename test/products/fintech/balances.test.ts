/**
 * Balances over time and statements (docs/api.md#balances-over-time-and-statements): one account's story told one
 * minute at a time on the server's clock (deposit, transfer, holds posted in part, voided and expired, a reversal, a
 * withdrawal), then read back at the end of each minute, at instants inside them, and as statements for periods.
 * Every expected number is worked out by hand from the story below, not from the code.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';
import { periodTotals } from '../../helpers/statements.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
// Minute 0 of the story: a whole minute two days ago. Each step happens 1 s into its minute, on the server's clock.
const BASE = Math.floor((Date.now() - 2 * DAY) / MINUTE) * MINUTE;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const step = (k: number) => {
  offsetMs = BASE + k * MINUTE + 1000 - Date.now();
};
const iso = (ms: number) => new Date(ms).toISOString();
/** The API's minute form of minute k. */
const minute = (k: number) => `${iso(BASE + k * MINUTE).slice(0, 16)}Z`;
/** An RFC 3339 instant `ms` into minute k. */
const instant = (k: number, ms: number) => iso(BASE + k * MINUTE + ms);
/** The moment an answer echoes for a time sent: the instant it names, in UTC to the millisecond. */
const echo = (sent: string) => iso(Date.parse(decodeURIComponent(sent)));
/** The last millisecond of minute k: what a balance at the minute form of k is at. */
const endOf = (k: number) => iso(BASE + (k + 1) * MINUTE - 1);

// A's balances (current, available) at the end of each minute of the story.
const A_AT_END = [
  [0, 0], // 0: A and B opened
  [10_000, 10_000], // 1: deposit 10000
  [7000, 7000], // 2: transfer 3000 to B
  [7000, 5000], // 3: hold h1 2000
  [7000, 4000], // 4: hold h2 1000
  [5500, 4500], // 5: h1 posted for 1500 (500 released)
  [5500, 5500], // 6: h2 voided
  [5500, 5000], // 7: hold h3 500, expiring 60 s later
  [5500, 5500], // 8: h3 expired (1 s into minute 8)
  [6500, 6500], // 9: B reverses 1000 of the transfer
  [6300, 6300], // 10: withdrawal 200
];

describe(`balances at a moment and statements (${BACKEND})`, () => {
  const server = useServer({ TRANSFER_EXPIRY_SWEEP_SECONDS: '60' }, { clock });
  let key: string;
  let a: string;
  let b: string;
  const txn: Record<string, string> = {};
  const get = (path: string) => call(server.url, 'GET', path, { key });
  const balances = (at?: string) => get(`/v1/fintech/accounts/${a}/balances${at === undefined ? '' : `?at=${at}`}`);
  const statement = (from: string, to: string) => get(`/v1/fintech/accounts/${a}/statement?from=${from}&to=${to}`);

  before(async () => {
    key = await server.key('balances-story');
    const m = money(server.url, key);
    const hold = (amount: number, extra = {}) =>
      m.post('/v1/fintech/transfers', {
        from_account_id: a,
        to_account_id: b,
        amount,
        currency: 'USD',
        pending: true,
        ...extra,
      });
    step(0);
    [a, b] = [await m.account(), await m.account()];
    step(1);
    txn.deposit = (await m.deposit(a, 10_000)).id;
    step(2);
    const t1 = await m.transfer(a, b, 3000);
    step(3);
    const h1 = await hold(2000);
    step(4);
    const h2 = await hold(1000);
    step(5);
    await m.post(`/v1/fintech/transfers/${h1.id}/post`, { amount: 1500 });
    step(6);
    await m.post(`/v1/fintech/transfers/${h2.id}/void`, {});
    step(7);
    await hold(500, { expires_in_seconds: 60 });
    step(9);
    const reversal = await m.post(`/v1/fintech/transfers/${t1.id}/reversals`, { amount: 1000 });
    step(10);
    txn.withdrawal = (await m.withdraw(a, 200)).id;
    const list = await m.get(`/v1/fintech/accounts/${a}/transactions?limit=100`);
    const ofSource = (id: string) => list.data.find((t: { source: { id: string } }) => t.source.id === id).id;
    [txn.transfer, txn.post, txn.reversal] = [ofSource(t1.id), ofSource(h1.id), ofSource(reversal.id)];
    assert.equal(list.data.length, 5, 'deposit, transfer, post, reversal, withdrawal');
    step(12); // now: two minutes after the last movement
  });

  test('at the end of each minute (the minute form): every transaction of that minute counts', async () => {
    for (const [k, [current, available]] of A_AT_END.entries()) {
      const reply = await balances(minute(k));
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(
        [reply.body.current_balance, reply.body.available_balance],
        [
          { amount: current, currency: 'USD' },
          { amount: available, currency: 'USD' },
        ],
        `minute ${k}`,
      );
      assert.equal(reply.body.at, endOf(k), 'the moment used, to the millisecond');
      assert.equal(reply.body.account_id, a);
      assert.equal(reply.body.object, 'fintech.balances');
    }
    const asked = clock().getTime();
    const now = (await balances()).body;
    const answered = clock().getTime();
    assert.deepEqual([now.current_balance.amount, now.available_balance.amount], [6300, 6300], 'at defaults to now');
    const at = Date.parse(now.at);
    assert.ok(asked <= at && at <= answered, `at is now, to the millisecond: ${now.at}`);
    assert.equal(now.at, iso(at));
  });

  test('an RFC 3339 instant is that instant: before or after a movement of the same minute', async () => {
    const amounts = async (at: string) => {
      const reply = await balances(at);
      assert.equal(reply.status, 200, reply.text);
      const body = reply.body;
      assert.equal(body.at, echo(at), 'the instant asked for, to the millisecond');
      return [body.current_balance.amount, body.available_balance.amount];
    };
    // Each step happened 1 s into its minute: half a second in, the minute before still stands.
    for (const k of [1, 2, 3, 4, 5, 6, 7, 9, 10]) {
      assert.deepEqual(await amounts(instant(k, 500)), A_AT_END[k - 1], `0.5 s into minute ${k}`);
      assert.deepEqual(await amounts(instant(k, 30_000)), A_AT_END[k], `30 s into minute ${k}`);
    }
    // h3 held from 7:01 until it expired at 8:01, before the sweep wrote anything.
    assert.deepEqual(await amounts(instant(8, 500)), [5500, 5000], 'still held just before its expiry');
    assert.deepEqual(await amounts(instant(8, 30_000)), [5500, 5500], 'released at its expires_at');
    assert.deepEqual(
      await amounts(encodeURIComponent(instant(8, 30_000).replace('Z', '+00:00'))),
      [5500, 5500],
      'an offset is accepted',
    );
  });

  test('last_transaction_id is the last transaction at or before the moment, null before the first', async () => {
    const last = async (at: string) => (await balances(at)).body.last_transaction_id;
    assert.equal(await last(minute(0)), null);
    assert.equal(await last(minute(1)), txn.deposit);
    assert.equal(await last(minute(4)), txn.transfer, 'a hold writes no transaction');
    assert.equal(await last(minute(8)), txn.post);
    assert.equal(await last(minute(9)), txn.reversal);
    assert.equal(await last(minute(10)), txn.withdrawal);
  });

  test('at before the account was opened is refused; after now it is read as now', async () => {
    const early = await balances(minute(-1));
    assertProblem(early, 'parameter_invalid', 'at');
    assert.ok(early.body.detail.includes(minute(0).slice(0, 16)), `the detail gives the opening time: ${early.text}`);
    assertProblem(await balances(instant(0, 500)), 'parameter_invalid', 'at');
    assert.equal((await balances(instant(0, 30_000))).status, 200, 'after the opening, in its minute');
    for (const later of [minute(12), minute(13), instant(12, 59_000), '2099-01-01T00:00Z']) {
      const asked = clock().getTime();
      const reply = await balances(later);
      const answered = clock().getTime();
      assert.equal(reply.status, 200, reply.text);
      const at = Date.parse(reply.body.at);
      assert.ok(asked <= at && at <= answered, `${later} is read as now: ${reply.body.at}`);
      assert.deepEqual([reply.body.current_balance.amount, reply.body.available_balance.amount], [6300, 6300]);
      const again = await balances(reply.body.at);
      assert.deepEqual(again.body, reply.body, 'asked again at the moment it echoes, the same answer');
    }
    assertProblem(await balances('2026-02-30T10:00Z'), 'parameter_invalid', 'at');
    assertProblem(await balances('yesterday'), 'parameter_invalid', 'at');
  });

  test("another organisation's account, or one that does not exist, is 404 for both reads", async () => {
    const other = await server.key('balances-other');
    for (const path of ['balances', `statement?from=${minute(1)}&to=${minute(5)}`]) {
      assertProblem(
        await call(server.url, 'GET', `/v1/fintech/accounts/${a}/${path}`, { key: other }),
        'resource_not_found',
      );
      assertProblem(await get(`/v1/fintech/accounts/acct_01ZZZZZZZZZZZZZZZZZZZZZZZZ/${path}`), 'resource_not_found');
    }
  });

  test('a statement is [from, to): opening before from, closing before to, credits and debits exact', async () => {
    const cases = [
      // from, to, opening, closing, credits [count, amount], debits [count, amount]
      [minute(1), minute(6), 0, 5500, [1, 10_000], [2, 4500]],
      [minute(2), minute(10), 10_000, 6500, [1, 1000], [2, 4500]],
      [minute(0), minute(10), 0, 6500, [2, 11_000], [2, 4500]],
      [minute(3), minute(5), 7000, 7000, [0, 0], [0, 0]],
      // Instants: 2:00.5 is before the transfer at 2:01; 9:30 is after the reversal at 9:01.
      [instant(2, 500), instant(9, 30_000), 10_000, 6500, [1, 1000], [2, 4500]],
      [instant(2, 30_000), instant(9, 500), 7000, 5500, [0, 0], [1, 1500]],
      [minute(1), minute(10), 0, 6500, [2, 11_000], [2, 4500]],
      [minute(5), minute(10), 7000, 6500, [1, 1000], [1, 1500]],
    ] as const;
    for (const [from, to, opening, closing, credits, debits] of cases) {
      const reply = await statement(from, to);
      assert.equal(reply.status, 200, reply.text);
      const s = reply.body;
      assert.deepEqual(
        [s.opening_balance, s.closing_balance, [s.credits.count, s.credits.amount], [s.debits.count, s.debits.amount]],
        [opening, closing, credits, debits],
        `[${from}, ${to})`,
      );
      assert.equal(s.closing_balance, s.opening_balance + s.credits.amount - s.debits.amount);
      assert.equal(s.currency, 'USD');
      assert.deepEqual([s.from, s.to], [echo(from), echo(to)], 'the moments used, to the millisecond');
      const listed = await periodTotals(server.url, key, a, from, to);
      assert.deepEqual(listed, { credits: s.credits, debits: s.debits }, `the list of [${from}, ${to}) agrees`);
    }
    const current = await statement(minute(9), minute(12));
    assert.deepEqual([current.body.credits.count, current.body.debits.count], [1, 1], 'to names the current minute');
  });

  test('a to after now is read as now: this month is from the 1st to the 1st of next month', async () => {
    const today = clock();
    const first = iso(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
    const next = iso(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1));
    for (const [from, to] of [
      [first, next],
      [minute(5), minute(13)],
      [minute(5), instant(12, 59_000)],
    ] as const) {
      const asked = clock().getTime();
      const reply = await statement(from, to);
      const answered = clock().getTime();
      assert.equal(reply.status, 200, reply.text);
      const s = reply.body;
      assert.equal(s.from, echo(from));
      const used = Date.parse(s.to);
      assert.ok(asked <= used && used <= answered, `to ${to} is read as now: ${s.to}`);
      assert.equal(s.closing_balance, 6300, `[${from}, ${to}) closes at the balance now`);
      const again = await statement(s.from, s.to);
      assert.deepEqual(again.body, s, 'asked again with the moments it echoes, the same statement');
    }
  });

  test('a statement needs from < to, from not after now, at most 366 days apart, both given', async () => {
    const refused = async (from: string, to: string, param: string, detail: RegExp) => {
      const reply = await statement(from, to);
      assertProblem(reply, 'parameter_invalid', param);
      assert.match(reply.body.detail, detail);
    };
    await refused(minute(5), minute(5), 'to', /after from/);
    await refused(minute(6), minute(5), 'to', /after from/);
    await refused(minute(13), minute(14), 'from', /from must not be after now/);
    await refused(instant(12, 59_000), minute(14), 'from', /from must not be after now/);
    await refused(iso(BASE + 12 * MINUTE - 367 * DAY), minute(12), 'to', /366 days/);
    const longest = await statement(iso(BASE + 12 * MINUTE - 366 * DAY), minute(12));
    assert.equal(longest.status, 200, `exactly 366 days: ${longest.text}`);
    assert.equal(longest.body.opening_balance, 0, 'before the account was opened, nothing');
    assert.equal(longest.body.closing_balance, 6300);
    assertProblem(await get(`/v1/fintech/accounts/${a}/statement?from=${minute(1)}`), 'parameter_missing', 'to');
    assertProblem(await get(`/v1/fintech/accounts/${a}/statement?to=${minute(1)}`), 'parameter_missing', 'from');
    assertProblem(await get(`/v1/fintech/accounts/${a}/statement`), 'parameter_missing', 'from');
  });
});
