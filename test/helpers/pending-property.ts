import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Db } from '../../src/db/database.ts';
import { countLedgerViolations } from '../../src/products/fintech/ledger/verify.ts';
import { fundedAccounts } from './money.ts';
import { checkReversals, type Reversal, reversal, reversalRequest, type Target } from './reversal-property.ts';
import { call, type Reply } from './server.ts';

/**
 * Money that waits, under concurrency (docs/api.md#holding-money-pending-transfers-and-the-two-balances): random holds (pending transfers), plain transfers, deposits and
 * withdrawals over a few accounts, all at once; then, all at once again, each hold resolved by one or two racing
 * actions (post in full or in part, void, the sandbox expiry), over one or more server processes. Afterwards: each
 * hold ended exactly once, as the one action that succeeded says; every balance is what the successes add up to;
 * nothing is held any more; `ledger verify` (money conserved, holds equal to pending transfers, available ≥ 0) holds.
 */
const ACCOUNTS = 3;
const START = 1000;

type Between = { from: number; to: number; amount: number };
type Simulation = { at: number; amount: number };
export type Movement =
  | ({ kind: 'hold' } & Between)
  | ({ kind: 'transfer' } & Between)
  | ({ kind: 'deposit' } & Simulation)
  | ({ kind: 'withdraw' } & Simulation);
export type Resolution = { kind: 'post'; part: number } | { kind: 'void' } | { kind: 'expire' };

const at = fc.nat(ACCOUNTS - 1);
const amount = fc.integer({ min: 1, max: 600 });
const pair = fc
  .record({ from: at, shift: fc.integer({ min: 1, max: ACCOUNTS - 1 }), amount })
  .map(({ from, shift, amount }) => ({ from, to: (from + shift) % ACCOUNTS, amount }));
export const movement: fc.Arbitrary<Movement> = fc.oneof(
  { weight: 4, arbitrary: pair.map((p) => ({ kind: 'hold' as const, ...p })) },
  { weight: 2, arbitrary: pair.map((p) => ({ kind: 'transfer' as const, ...p })) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('deposit' as const, 'withdraw' as const), at, amount }) },
);
const resolution: fc.Arbitrary<Resolution> = fc.oneof(
  fc.record({ kind: fc.constant('post' as const), part: fc.double({ min: 0.01, max: 1, noNaN: true }) }),
  fc.constant({ kind: 'void' as const }),
  fc.constant({ kind: 'expire' as const }),
);
/** One or two actions per hold: two race for it. */
export const resolutions = fc.array(fc.array(resolution, { minLength: 1, maxLength: 2 }), { maxLength: 40 });

const ENDED = { post: 'posted', void: 'voided', expire: 'expired' } as const;

/** What runs alongside the holds' resolutions: reversals, and movements that are not holds. */
export type Late = { reversals: Reversal[]; movements: Movement[] };
export const late: fc.Arbitrary<Late> = fc.record({
  reversals: fc.array(reversal, { minLength: 4, maxLength: 30 }),
  movements: fc.array(
    movement.filter((m) => m.kind !== 'hold'),
    { maxLength: 10 },
  ),
});

export async function runPendingScenario(
  urls: string[],
  db: Db,
  movements: Movement[],
  plans: Resolution[][],
  then: Late = { reversals: [], movements: [] },
  tally: Record<string, number> = {},
): Promise<void> {
  const { key, ids } = await fundedAccounts(urls, ACCOUNTS, START);
  const post = (n: number, path: string, json?: unknown) =>
    call(urls[n % urls.length]!, 'POST', path, { key, ...(json === undefined ? {} : { json }) });
  const expected = ids.map(() => START);
  const refusal = (reply: Reply, allowed: string[]) =>
    assert.ok(reply.status !== 200 && allowed.includes(reply.body?.code), `${reply.status} ${reply.text}`);
  const send = (m: Movement, n: number) => {
    if (m.kind === 'deposit' || m.kind === 'withdraw') {
      const simulation = m.kind === 'deposit' ? 'deposits' : 'withdrawals';
      return post(n, `/v1/sandbox/fintech/accounts/${ids[m.at]}/${simulation}`, { amount: m.amount });
    }
    const body = { from_account_id: ids[m.from], to_account_id: ids[m.to], amount: m.amount, currency: 'USD' };
    return post(n, '/v1/fintech/transfers', m.kind === 'hold' ? { ...body, pending: true } : body);
  };
  const holds: Target[] = [];
  const targets: Target[] = [];
  const settle = (m: Movement, reply: Reply) => {
    if (reply.status !== 200) return refusal(reply, ['insufficient_funds']);
    if (m.kind === 'deposit') expected[m.at]! += m.amount;
    else if (m.kind === 'withdraw') expected[m.at]! -= m.amount;
    else if (m.kind === 'transfer') {
      expected[m.from]! -= m.amount;
      expected[m.to]! += m.amount;
    }
    if (m.kind === 'transfer' || m.kind === 'hold')
      targets.push({ id: reply.body.id, from: m.from, to: m.to, amount: m.amount });
    if (m.kind === 'hold') holds.push(targets.at(-1)!);
  };
  const replies = await Promise.all(movements.map(send));
  for (const [n, m] of movements.entries()) settle(m, replies[n]!);
  // All at once: each hold's one or two actions, the reversals (of plain transfers and of holds being resolved),
  // and more movements.
  const actions = holds.map((_hold, i) => plans[i % Math.max(plans.length, 1)] ?? [{ kind: 'void' as const }]);
  const aimed = targets.length === 0 ? [] : then.reversals.map((r) => reversalRequest(r, targets.slice()));
  const [results, reversed, later] = await Promise.all([
    Promise.all(
      holds.map((hold, i) =>
        Promise.all(
          actions[i]!.map((action, k) => {
            if (action.kind === 'expire') return post(i + k, `/v1/sandbox/fintech/transfers/${hold.id}/expire`);
            if (action.kind === 'void') return post(i + k, `/v1/fintech/transfers/${hold.id}/void`);
            const part = Math.max(1, Math.floor(hold.amount * action.part));
            return post(i + k, `/v1/fintech/transfers/${hold.id}/post`, { amount: part });
          }),
        ),
      ),
    ),
    Promise.all(aimed.map((a, n) => post(n + 1, a.path, a.json))),
    Promise.all(then.movements.map(send)),
  ]);
  for (const [n, m] of then.movements.entries()) settle(m, later[n]!);
  for (const [i, hold] of holds.entries()) {
    const won = results[i]!.map((reply, k) => ({ reply, action: actions[i]![k]! })).filter(
      (r) => r.reply.status === 200,
    );
    assert.equal(
      won.length,
      1,
      `exactly one action ends hold ${hold.id}: ${results[i]!.map((r) => r.text).join(' | ')}`,
    );
    for (const reply of results[i]!)
      if (reply.status !== 200) refusal(reply, ['transfer_not_pending', 'transfer_expired']);
    const { reply, action } = won[0]!;
    assert.equal(reply.body.status, ENDED[action.kind]);
    const stored = (await call(urls[0]!, 'GET', `/v1/fintech/transfers/${hold.id}`, { key })).body;
    assert.equal(stored.status, ENDED[action.kind], 'the transfer ended as its one winning action says');
    if (action.kind === 'post') {
      expected[hold.from]! -= stored.posted_amount;
      expected[hold.to]! += stored.posted_amount;
    }
  }
  const sent = aimed.map((a, n) => ({ reversal: a.reversal, target: a.target, reply: reversed[n]! }));
  await checkReversals(urls[0]!, key, sent, expected, tally, targets);
  for (const [i, id] of ids.entries()) {
    const account = (await call(urls[0]!, 'GET', `/v1/fintech/accounts/${id}`, { key })).body;
    assert.equal(account.current_balance.amount, expected[i], `current balance of account ${i}`);
    assert.equal(account.available_balance.amount, expected[i], `nothing is held any more on account ${i}`);
  }
  assert.equal(await countLedgerViolations(db), 0, 'ledger verify passes');
}
