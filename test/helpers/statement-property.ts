import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Db } from '../../src/db/database.ts';
import { countLedgerViolations } from '../../src/products/fintech/ledger/verify.ts';
import { fundedAccounts } from './money.ts';
import { call, type Reply } from './server.ts';
import { periodTotals } from './statements.ts';

/**
 * Statements add up (docs/api.md#balances-over-time-and-statements): random movements over a few accounts (deposits,
 * withdrawals, transfers, holds posted in part, voided or expired, reversals in part), a few at once in each step,
 * with time passing between steps; then, for random periods, `closing = opening + credits − debits`, the period's
 * transaction list agrees with the totals, and the balances at the instant before each end are the opening and
 * closing balances. Whatever the order the writes took their locks in, and whichever way the clock stepped.
 */
const ACCOUNTS = 3;
const START = 5000;

const account = fc.nat(ACCOUNTS - 1);
const amount = fc.integer({ min: 1, max: 2000 });
const part = fc.double({ min: 0.01, max: 1, noNaN: true });
const which = fc.nat(50);
const pair = fc
  .record({ from: account, shift: fc.integer({ min: 1, max: ACCOUNTS - 1 }), amount })
  .map(({ from, shift, amount }) => ({ from, to: (from + shift) % ACCOUNTS, amount }));
type Op =
  | { kind: 'deposit' | 'withdraw'; at: number; amount: number }
  | { kind: 'transfer' | 'hold'; from: number; to: number; amount: number }
  | { kind: 'post' | 'reverse'; which: number; part: number }
  | { kind: 'void' | 'expire'; which: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('deposit' as const, 'withdraw' as const), at: account, amount }),
  pair.map((p) => ({ kind: 'transfer' as const, ...p })),
  pair.map((p) => ({ kind: 'hold' as const, ...p })),
  fc.record({ kind: fc.constantFrom('post' as const, 'reverse' as const), which, part }),
  fc.record({ kind: fc.constantFrom('void' as const, 'expire' as const), which }),
);
/** A few operations at once, then the clock moves on by `minutes` (one process: may step back; else real time). */
export const steps = fc.array(
  fc.record({ ops: fc.array(op, { minLength: 1, maxLength: 3 }), minutes: fc.integer({ min: -2, max: 5 }) }),
  { minLength: 3, maxLength: 15 },
);
/** Where in the run's time a period starts and ends (in ten-thousandths of it), and the form each end is written in. */
export const periods = fc.array(
  fc.record({
    account,
    ends: fc.tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 })),
    forms: fc.tuple(fc.constantFrom('minute', 'Z', '+02:00'), fc.constantFrom('minute', 'Z', '+02:00')),
  }),
  { minLength: 2, maxLength: 6 },
);

const REFUSALS = [
  'insufficient_funds',
  'transfer_not_pending',
  'transfer_expired',
  'transfer_not_reversible',
  'parameter_invalid',
];

/** A time as the API takes it: the minute it falls in, or the instant in UTC or at +02:00. */
function written(fractional: number, form: string): { text: string; at: number } {
  // Times are written to the millisecond: `at` is the instant the text names, so two ends a fraction apart are equal.
  const ms = Math.floor(fractional);
  const iso = (t: number) => new Date(t).toISOString();
  if (form === 'minute') return { text: `${iso(ms).slice(0, 16)}Z`, at: Math.floor(ms / 60_000) * 60_000 };
  if (form === 'Z') return { text: iso(ms), at: ms };
  return { text: `${iso(ms + 7_200_000).slice(0, -1)}+02:00`, at: ms };
}

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

export interface Timing {
  /** The time now, as the server sees it. */
  now(): number;
  /** Called between steps with the step's `minutes`. */
  pass(minutes: number): Promise<void>;
  /** Called after the last step: from then on, every entry the run wrote is in the past. */
  settle(): void;
}

export async function runStatementScenario(
  urls: string[],
  db: Db,
  timing: Timing,
  plan: ValueOf<typeof steps>,
  asked: ValueOf<typeof periods>,
): Promise<void> {
  const first = timing.now();
  const { key, ids } = await fundedAccounts(urls, ACCOUNTS, START);
  let n = 0;
  const send = (method: string, path: string, json?: unknown) =>
    call(urls[n++ % urls.length]!, method, path, { key, ...(json === undefined ? {} : { json }) });
  const holds: { id: string; amount: number }[] = [];
  const posted: string[] = [];
  for (const { ops, minutes } of plan) {
    const replies = await Promise.all(ops.map((o) => perform(send, ids, holds, posted, o)));
    for (const { reply, done } of replies) {
      if (reply === null) continue;
      if (reply.status === 200) done?.(reply.body);
      else assert.ok(reply.status < 500 && REFUSALS.includes(reply.body?.code), `${reply.status} ${reply.text}`);
    }
    await timing.pass(minutes);
  }
  timing.settle();
  const last = timing.now();
  for (const period of asked) {
    // The run's time, and a tenth more before it (before the accounts were opened).
    const start = first - (last - first) / 10;
    const [x, y] = period.ends.map((e) => start + (e / 10_000) * (last - start)) as [number, number];
    const from = written(Math.min(x, y), period.forms[0]);
    const to = written(Math.max(x, y), period.forms[1]);
    if (from.at >= to.at) continue;
    await checkPeriod(send, ids[period.account]!, from, to);
  }
  for (const id of ids) {
    const now = (await send('GET', `/v1/fintech/accounts/${id}/balances`)).body;
    const stored = (await send('GET', `/v1/fintech/accounts/${id}`)).body;
    assert.deepEqual(
      [now.current_balance, now.available_balance],
      [stored.current_balance, stored.available_balance],
      'the balances now are the account',
    );
  }
  assert.equal(await countLedgerViolations(db), 0, 'ledger verify passes');

  async function checkPeriod(
    get: Send,
    id: string,
    from: { text: string; at: number },
    to: { text: string; at: number },
  ) {
    const q = `from=${encodeURIComponent(from.text)}&to=${encodeURIComponent(to.text)}`;
    const reply = await get('GET', `/v1/fintech/accounts/${id}/statement?${q}`);
    assert.equal(reply.status, 200, reply.text);
    const s = reply.body;
    const where = `[${from.text}, ${to.text})`;
    assert.equal(s.closing_balance, s.opening_balance + s.credits.amount - s.debits.amount, `adds up over ${where}`);
    const listed = await periodTotals(urls[0]!, key, id, from.text, to.text, 3);
    assert.deepEqual(listed, { credits: s.credits, debits: s.debits }, `the list of ${where} agrees`);
    for (const [end, balance] of [
      [from.at, s.opening_balance],
      [to.at, s.closing_balance],
    ] as const) {
      const at = new Date(end - 1).toISOString();
      const b = await get('GET', `/v1/fintech/accounts/${id}/balances?at=${at}`);
      // Before the account was opened there is no balance to ask for, and the statement says 0.
      if (b.status === 400 && /opened/.test(b.body.detail)) assert.equal(balance, 0, `${where} before the opening`);
      else assert.equal(b.body.current_balance?.amount, balance, `the balance at ${at}, for ${where}: ${b.text}`);
    }
  }
}

type Send = (method: string, path: string, json?: unknown) => Promise<Reply>;
type Done = (body: any) => unknown;

/** One operation; `done` records what a success made (a hold, a posted transfer). */
async function perform(
  send: Send,
  ids: string[],
  holds: { id: string; amount: number }[],
  posted: string[],
  o: Op,
): Promise<{ reply: Reply | null; done?: Done }> {
  const T = '/v1/fintech/transfers';
  const pick = <T>(list: T[], i: number) => (list.length === 0 ? undefined : list[i % list.length]);
  switch (o.kind) {
    case 'deposit':
    case 'withdraw': {
      const path = `/v1/sandbox/fintech/accounts/${ids[o.at]}/${o.kind === 'deposit' ? 'deposits' : 'withdrawals'}`;
      return { reply: await send('POST', path, { amount: o.amount }) };
    }
    case 'transfer':
    case 'hold': {
      const body = { from_account_id: ids[o.from], to_account_id: ids[o.to], amount: o.amount, currency: 'USD' };
      const hold = o.kind === 'hold';
      const reply = await send('POST', T, hold ? { ...body, pending: true } : body);
      return { reply, done: (t) => (hold ? holds.push({ id: t.id, amount: o.amount }) : posted.push(t.id)) };
    }
    case 'post': {
      const hold = pick(holds, o.which);
      if (hold === undefined) return { reply: null };
      const amount = Math.max(1, Math.floor(hold.amount * o.part));
      return { reply: await send('POST', `${T}/${hold.id}/post`, { amount }), done: () => posted.push(hold.id) };
    }
    case 'void':
    case 'expire': {
      const hold = pick(holds, o.which);
      if (hold === undefined) return { reply: null };
      const path = o.kind === 'void' ? `${T}/${hold.id}/void` : `/v1/sandbox/fintech/transfers/${hold.id}/expire`;
      return { reply: await send('POST', path) };
    }
    case 'reverse': {
      const id = pick(posted, o.which);
      if (id === undefined) return { reply: null };
      const transfer = (await send('GET', `${T}/${id}`)).body;
      const left = transfer.posted_amount - transfer.amount_reversed;
      const amount = Math.max(1, Math.floor(left * o.part));
      return { reply: await send('POST', `${T}/${id}/reversals`, { amount }) };
    }
  }
}
