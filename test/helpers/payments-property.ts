import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Db } from '../../src/db/database.ts';
import { countLedgerViolations } from '../../src/products/fintech/ledger/verify.ts';
import { fundedAccounts } from './money.ts';
import { checkReversals, type Reversal, reversal, reversalRequest, type Target } from './reversal-property.ts';
import { call, type Reply } from './server.ts';

/**
 * Payments under concurrency (docs/api.md#bank-account-numbers-and-payments, docs/api.md#the-sandbox-clock): over a
 * few funded accounts, all at once, payments out on every rail, inbound credits and debits to the accounts' numbers,
 * plain transfers and sandbox clock advances; then, all at once again, each payment's outcomes on demand (cancel,
 * settle, return, reject; one or two racing), reversals of the plain transfers, more of everything, and more advances;
 * then one advance far enough that every step still due runs. A few rules make some amounts return (at submission,
 * at settlement, a day after it) or be rejected. Spread over one or more server processes. Afterwards: every payment's
 * status agrees with its transfer, each status change has exactly one `fintech.payment.updated` event, every balance
 * is what the successes add up to (none below 0, nothing held), and `ledger verify` passes.
 */
const ACCOUNTS = 3;
const START = 1000;
const RAILS = ['ach', 'wire', 'rtp'] as const;
type Rail = (typeof RAILS)[number];

/** Amounts the run's rules act on (see `RULES`). */
const RETURNED_LATER = 77;
const RETURNED_AT_SETTLEMENT = 78;
const REFUSED_AT_SUBMISSION = 79;
const RULES = [
  { match: { amount: RETURNED_LATER }, action: { return: 'R01', at: 'P1D' } },
  { match: { amount: RETURNED_AT_SETTLEMENT }, action: { return: 'R03', at: 'settlement' } },
  { match: { amount: REFUSED_AT_SUBMISSION, rail: 'ach' }, action: { return: 'R02', at: 'submission' } },
  { match: { amount: REFUSED_AT_SUBMISSION }, action: { reject: true } },
];

export type Op =
  | { kind: 'pay'; at: number; rail: Rail; amount: number }
  | { kind: 'inbound'; at: number; direction: 'credit' | 'debit'; amount: number }
  | { kind: 'transfer'; from: number; to: number; amount: number }
  | { kind: 'advance'; hours: number };
export type Outcome = 'cancel' | 'settle' | 'return' | 'reject';

const at = fc.nat(ACCOUNTS - 1);
const amount = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 400 }) },
  { weight: 1, arbitrary: fc.constantFrom(RETURNED_LATER, RETURNED_AT_SETTLEMENT, REFUSED_AT_SUBMISSION) },
);
export const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('pay' as const), at, rail: fc.constantFrom(...RAILS), amount }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('inbound' as const),
      at,
      direction: fc.constantFrom('credit' as const, 'debit' as const),
      amount,
    }),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ from: at, shift: fc.integer({ min: 1, max: ACCOUNTS - 1 }), amount })
      .map(({ from, shift, amount }) => ({ kind: 'transfer' as const, from, to: (from + shift) % ACCOUNTS, amount })),
  },
  // Up to four days on: past cut-offs, settlements and a weekend, whatever day the run starts.
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 0, max: 96 }) }),
  },
);
export const ops = fc.array(op, { minLength: 4, maxLength: 24 });
/** Per payment, in order: the outcomes asked on demand, at once (none, one, or two racing). */
export const outcomes = fc.array(
  fc.array(fc.constantFrom<Outcome>('cancel', 'settle', 'return', 'reject'), { maxLength: 2 }),
  {
    maxLength: 24,
  },
);
export type Late = { reversals: Reversal[]; ops: Op[] };
export const late: fc.Arbitrary<Late> = fc.record({
  reversals: fc.array(reversal, { maxLength: 12 }),
  ops: fc.array(op, { maxLength: 12 }),
});

/** Why each request may be refused under these races; each refusal wrote nothing. */
const REFUSALS: Record<Op['kind'] | Outcome, string[]> = {
  pay: ['insufficient_funds'],
  inbound: [],
  transfer: ['insufficient_funds'],
  // An advance to a time the clock has passed (another advance took it further first).
  advance: ['parameter_invalid'],
  cancel: ['payment_state_invalid'],
  settle: ['payment_state_invalid'],
  return: ['payment_state_invalid'],
  reject: ['payment_state_invalid'],
};

const refusedAs = (what: keyof typeof REFUSALS, reply: Reply, detail: unknown) =>
  assert.ok(
    reply.status !== 200 && REFUSALS[what].includes(reply.body?.code),
    `${JSON.stringify(detail)} → ${reply.status} ${reply.text}`,
  );

/** Every event of `type` of the key's org and mode (GET /v1/events, all pages). */
export async function eventsOf(url: string, key: string, type: string): Promise<{ data: { object: any } }[]> {
  const all: { id: string; data: { object: any } }[] = [];
  for (let after = ''; ; ) {
    const page = await call(url, 'GET', `/v1/events?type=${type}&limit=100${after ? `&starting_after=${after}` : ''}`, {
      key,
    });
    assert.equal(page.status, 200, page.text);
    all.push(...page.body.data);
    if (!page.body.has_more) return all;
    after = page.body.data.at(-1).id;
  }
}

/** Every payment of the key's org and mode. */
export async function paymentsOf(url: string, key: string): Promise<any[]> {
  const all: any[] = [];
  for (let after = ''; ; ) {
    const path = `/v1/fintech/payments?limit=100${after ? `&starting_after=${after}` : ''}`;
    const page = await call(url, 'GET', path, { key });
    assert.equal(page.status, 200, page.text);
    all.push(...page.body.data);
    if (!page.body.has_more) return all;
    after = page.body.data.at(-1).id;
  }
}

/**
 * The number of status changes a payment went through, from its times: each has one `fintech.payment.updated`. An
 * inbound payment is created settled or returned, and never changes.
 */
export function statusChanges(p: {
  direction: string;
  status: string;
  submitted_at: string | null;
  settled_at: string | null;
}): number {
  if (p.direction === 'inbound' || p.status === 'pending_submission') return 0;
  const ended = p.status === 'returned' || p.status === 'rejected' || p.status === 'canceled' ? 1 : 0;
  return (p.submitted_at === null ? 0 : 1) + (p.settled_at === null ? 0 : 1) + ended;
}

/**
 * A payment out agrees with its transfer: pending until settled; posted in full once settled; a return after
 * settlement reverses it in full, once, with the R code in the reversal's description; returned before settlement,
 * rejected or canceled: voided. An inbound payment settled is a posted transfer; returned, it has none.
 */
export async function checkAgrees(url: string, key: string, p: any): Promise<void> {
  const label = `payment ${p.id} (${p.direction} ${p.rail} ${p.amount}, ${p.status})`;
  if (p.direction === 'inbound') {
    if (p.status === 'returned') return assert.equal(p.transfer_id, null, label);
    assert.equal(p.status, 'settled', label);
  }
  const transfer = (await call(url, 'GET', `/v1/fintech/transfers/${p.transfer_id}`, { key })).body;
  assert.equal(transfer.amount, p.amount, label);
  if (p.direction === 'inbound') return assert.equal(transfer.status, 'posted', label);
  const reversals = (await call(url, 'GET', `/v1/fintech/transfers/${p.transfer_id}/reversals?limit=100`, { key })).body
    .data;
  const settledThenReturned = p.status === 'returned' && p.settled_at !== null;
  assert.equal(reversals.length, settledThenReturned ? 1 : 0, `${label}: its reversals`);
  if (p.status === 'pending_submission' || p.status === 'submitted') assert.equal(transfer.status, 'pending', label);
  else if (p.status === 'settled' || settledThenReturned) {
    assert.equal(transfer.status, 'posted', label);
    assert.equal(transfer.posted_amount, p.amount, label);
    assert.equal(transfer.amount_reversed, settledThenReturned ? p.amount : 0, label);
    if (settledThenReturned) assert.match(reversals[0].description, new RegExp(`^${p.return_reason.code}: `), label);
  } else assert.equal(transfer.status, 'voided', label);
  if (p.status === 'returned') assert.notEqual(p.return_reason, null, label);
}

/** Every payment's `fintech.payment.created` once, and one `fintech.payment.updated` per status change, in order. */
export async function checkEventsOnce(url: string, key: string, payments: any[]): Promise<void> {
  const created = await eventsOf(url, key, 'fintech.payment.created');
  const updated = await eventsOf(url, key, 'fintech.payment.updated');
  const count = new Map<string, number>();
  for (const e of created) count.set(e.data.object.id, (count.get(e.data.object.id) ?? 0) + 1);
  const changes = new Map<string, string[]>();
  // Newest first: oldest first once reversed.
  for (const e of updated.reverse())
    changes.set(e.data.object.id, [...(changes.get(e.data.object.id) ?? []), e.data.object.status]);
  for (const p of payments) {
    assert.equal(count.get(p.id), 1, `payment ${p.id} was created once`);
    const seen = changes.get(p.id) ?? [];
    assert.equal(seen.length, statusChanges(p), `payment ${p.id} (${p.status}): one event per change, saw ${seen}`);
    assert.equal(new Set(seen).size, seen.length, `payment ${p.id}: no status twice (${seen})`);
    if (seen.length > 0) assert.equal(seen.at(-1), p.status, `payment ${p.id}: its last event is its status`);
  }
  assert.equal(created.length, payments.length, 'no event of a payment that does not exist');
}

/** `hours` after `start` (the clock at the run's start), as an advance's `to`. */
const after = (start: number, hours: number) => new Date(start + hours * 3_600_000).toISOString();

export async function runPaymentsScenario(
  urls: string[],
  db: Db,
  first: Op[],
  plans: Outcome[][],
  then: Late = { reversals: [], ops: [] },
  tally: Record<string, number> = {},
): Promise<void> {
  const { key, ids } = await fundedAccounts(urls, ACCOUNTS, START);
  const send = (n: number, method: string, path: string, json?: unknown) =>
    call(urls[n % urls.length]!, method, path, { key, ...(json === undefined ? {} : { json }) });
  const ok = async (path: string, json: unknown) => {
    const reply = await send(0, 'POST', path, json);
    assert.equal(reply.status, 200, `${path}: ${reply.text}`);
    return reply.body;
  };
  const external = await ok('/v1/fintech/external_accounts', {
    routing_number: '021000021',
    account_number: '000123456789',
    account_holder_name: 'Acme Supplies LLC',
    account_type: 'checking',
  });
  // The last account's number keeps inbound debits blocked (R29); the others allow them.
  const numbers: string[] = [];
  for (const [i, id] of ids.entries()) {
    const inbound_debits = i === ACCOUNTS - 1 ? 'blocked' : 'allowed';
    numbers.push((await ok('/v1/fintech/account_numbers', { account_id: id, inbound_debits })).account_number);
  }
  for (const rule of RULES) await ok('/v1/sandbox/fintech/payment_rules', rule);
  const start = Date.parse((await send(0, 'GET', '/v1/sandbox/clock')).body.now);

  const expected = ids.map(() => START);
  const transfers: Target[] = [];
  const outs: { id: string; transfer: string }[] = [];
  const request = (o: Op, n: number) => {
    if (o.kind === 'advance') return send(n, 'POST', '/v1/sandbox/clock/advance', { to: after(start, o.hours) });
    if (o.kind === 'transfer') {
      const body = { from_account_id: ids[o.from], to_account_id: ids[o.to], amount: o.amount, currency: 'USD' };
      return send(n, 'POST', '/v1/fintech/transfers', body);
    }
    if (o.kind === 'inbound') {
      const body = {
        account_number: numbers[o.at],
        amount: o.amount,
        rail: 'ach',
        direction: o.direction,
        originator_name: 'Globex',
      };
      return send(n, 'POST', '/v1/sandbox/fintech/inbound_payments', body);
    }
    const body = {
      account_id: ids[o.at],
      external_account_id: external.id,
      amount: o.amount,
      currency: 'USD',
      rail: o.rail,
    };
    return send(n, 'POST', '/v1/fintech/payments', body);
  };
  const settle = (o: Op, reply: Reply) => {
    const outcome = reply.status === 200 ? `${o.kind}: ok` : `${o.kind}: ${reply.body?.code}`;
    tally[outcome] = (tally[outcome] ?? 0) + 1;
    if (reply.status !== 200) return refusedAs(o.kind, reply, o);
    if (o.kind === 'transfer') {
      expected[o.from]! -= o.amount;
      expected[o.to]! += o.amount;
      transfers.push({ id: reply.body.id, from: o.from, to: o.to, amount: o.amount });
    } else if (o.kind === 'pay') outs.push({ id: reply.body.id, transfer: reply.body.transfer_id });
  };
  const replies = await Promise.all(first.map(request));
  for (const [n, o] of first.entries()) settle(o, replies[n]!);

  // All at once: the payments' outcomes on demand, reversals of the plain transfers, more of everything.
  const asked = outs.map((_, i) => plans[i % Math.max(plans.length, 1)] ?? []);
  const aimed = transfers.length === 0 ? [] : then.reversals.map((r) => reversalRequest(r, transfers.slice()));
  const [decided, reversed, later, foreign] = await Promise.all([
    Promise.all(
      outs.map((p, i) =>
        Promise.all(
          asked[i]!.map((outcome, k) => {
            if (outcome === 'cancel') return send(i + k, 'POST', `/v1/fintech/payments/${p.id}/cancel`, {});
            const body = outcome === 'return' ? { reason: 'R01' } : {};
            return send(i + k, 'POST', `/v1/sandbox/fintech/payments/${p.id}/${outcome}`, body);
          }),
        ),
      ),
    ),
    Promise.all(aimed.map((a, n) => send(n + 1, 'POST', a.path, a.json))),
    Promise.all(then.ops.map((o, n) => request(o, n + 1))),
    // A payment's transfer is the payment's: nobody reverses it by hand.
    Promise.all(outs.slice(0, 2).map((p, n) => send(n, 'POST', `/v1/fintech/transfers/${p.transfer}/reversals`, {}))),
  ]);
  for (const [n, o] of then.ops.entries()) settle(o, later[n]!);
  for (const [i, replies] of decided.entries())
    for (const [k, reply] of replies.entries()) {
      const outcome = asked[i]![k]!;
      tally[`${outcome}: ${reply.status === 200 ? 'ok' : reply.body?.code}`] ??= 0;
      tally[`${outcome}: ${reply.status === 200 ? 'ok' : reply.body?.code}`]!++;
      if (reply.status !== 200) refusedAs(outcome, reply, { payment: outs[i]!.id, outcome });
    }
  for (const reply of foreign)
    assert.ok(
      reply.status === 409 && ['transfer_not_reversible', 'payment_state_invalid'].includes(reply.body.code),
      reply.text,
    );

  // Then everything still due runs: past every advance (four days at most), a week more.
  const last = await send(0, 'POST', '/v1/sandbox/clock/advance', { to: after(start, 96 + 7 * 24) });
  assert.equal(last.status, 200, last.text);

  const payments = await paymentsOf(urls[0]!, key);
  assert.equal(payments.filter((p) => p.direction === 'outbound').length, outs.length, 'every payment out once');
  for (const p of payments) {
    assert.ok(['settled', 'returned', 'rejected', 'canceled'].includes(p.status), `${p.id} ended: ${p.status}`);
    await checkAgrees(urls[0]!, key, p);
    const ended = `${p.direction} ${p.rail} ${p.status}${p.settled_at !== null && p.status === 'returned' ? ' after settlement' : ''}`;
    tally[ended] = (tally[ended] ?? 0) + 1;
    const i = ids.indexOf(p.account_id);
    if (p.status !== 'settled') continue;
    if (p.direction === 'outbound') expected[i]! -= p.amount;
    else {
      const transfer = (await call(urls[0]!, 'GET', `/v1/fintech/transfers/${p.transfer_id}`, { key })).body;
      expected[i]! += transfer.to_account_id === p.account_id ? p.amount : -p.amount;
    }
  }
  await checkEventsOnce(urls[0]!, key, payments);
  const sent = aimed.map((a, n) => ({ reversal: a.reversal, target: a.target, reply: reversed[n]! }));
  await checkReversals(urls[0]!, key, sent, expected, tally, transfers);
  for (const [i, id] of ids.entries()) {
    const account = (await call(urls[0]!, 'GET', `/v1/fintech/accounts/${id}`, { key })).body;
    assert.equal(account.current_balance.amount, expected[i], `current balance of account ${i}`);
    assert.equal(account.available_balance.amount, expected[i], `nothing is held any more on account ${i}`);
    assert.ok(expected[i]! >= 0);
  }
  assert.equal(await countLedgerViolations(db), 0, 'ledger verify passes');
}
