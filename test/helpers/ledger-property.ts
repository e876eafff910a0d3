import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Db } from '../../src/db/database.ts';
import { countLedgerViolations } from '../../src/products/fintech/ledger/verify.ts';
import { fundedAccounts } from './money.ts';
import { checkReversals, type Sent } from './reversal-property.ts';
import { call, type Reply } from './server.ts';

/**
 * The ledger's property under concurrency (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations): random transfers, deposits, withdrawals, partial
 * reversals of two transfers made first (docs/api.md#correcting-a-transfer), freezes, unfreezes and closes over a few accounts, all sent at once (some twice with the same Idempotency-Key, as a
 * client retrying would), across one or more server processes. Afterwards every invariant must hold.
 */
const ACCOUNTS = 4;
const START = 1000;

export type Op =
  | { kind: 'transfer'; from: number; to: number; amount: number; retry: boolean }
  | { kind: 'deposit' | 'withdraw'; at: number; amount: number; retry: boolean }
  | { kind: 'freeze' | 'unfreeze' | 'close'; at: number; retry: boolean }
  | { kind: 'reverse'; target: number; part: number; retry: boolean };

/** Two transfers made before the run, which `reverse` ops reverse in part (docs/api.md#correcting-a-transfer). */
const TARGETS = [
  { from: 0, to: 1, amount: 300 },
  { from: 2, to: 3, amount: 300 },
];

const at = fc.nat(ACCOUNTS - 1);
const amount = fc.integer({ min: 1, max: 800 });
const retry = fc.boolean();
// Mostly two different accounts; now and then the same one twice, which must be refused.
const transfer = fc
  .record({
    from: at,
    shift: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: ACCOUNTS - 1 }) }, fc.constant(0)),
    amount,
    retry,
  })
  .map(({ from, shift, ...rest }) => ({ kind: 'transfer' as const, from, to: (from + shift) % ACCOUNTS, ...rest }));
export const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: transfer },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('deposit' as const, 'withdraw' as const), at, amount, retry }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('reverse' as const),
      target: fc.nat(TARGETS.length - 1),
      part: fc.double({ min: 0.01, max: 0.8, noNaN: true }),
      retry,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom('freeze' as const, 'unfreeze' as const, 'close' as const),
      at,
      retry,
    }),
  },
);

// Refusals a correct server may give under races: each says nothing was written.
const REFUSALS = new Set([
  'insufficient_funds',
  'account_frozen',
  'account_closed',
  'account_balance_nonzero',
  'idempotency_request_in_progress',
  'transfer_not_reversible',
]);

function request(op: Op, ids: string[], targets: string[]): { path: string; json: unknown } {
  if (op.kind === 'reverse') {
    const amount = Math.max(1, Math.floor(TARGETS[op.target]!.amount * op.part));
    return { path: `/v1/fintech/transfers/${targets[op.target]}/reversals`, json: { amount } };
  }
  if (op.kind === 'transfer')
    return {
      path: '/v1/fintech/transfers',
      json: { from_account_id: ids[op.from], to_account_id: ids[op.to], amount: op.amount, currency: 'USD' },
    };
  if (op.kind === 'deposit' || op.kind === 'withdraw') {
    const kind = op.kind === 'deposit' ? 'deposits' : 'withdrawals';
    return { path: `/v1/sandbox/fintech/accounts/${ids[op.at]}/${kind}`, json: { amount: op.amount } };
  }
  return {
    path: `/v1/fintech/accounts/${ids[op.at]}/${op.kind}`,
    json: op.kind === 'freeze' ? { reason: 'other' } : {},
  };
}

function assertRefusal(op: Op, reply: Reply): void {
  if (reply.status === 200) return;
  const sameAccount = op.kind === 'transfer' && op.from === op.to && reply.body?.code === 'parameter_invalid';
  // A reversal of more than remains to reverse (others took the rest) is a 400 too.
  const beyondRemaining = op.kind === 'reverse' && reply.body?.code === 'parameter_invalid';
  assert.ok(
    sameAccount || beyondRemaining || REFUSALS.has(reply.body?.code),
    `${JSON.stringify(op)} → ${reply.status} ${reply.text}`,
  );
}

/** What the runs did, for the test's diagnostics: requests sent, answered 200, refused (by code). */
export interface Tally {
  sent: number;
  acknowledged: number;
  refused: Record<string, number>;
}

export function newTally(): Tally {
  return { sent: 0, acknowledged: 0, refused: {} };
}

/** One run: a fresh org and accounts, the ops all at once, then every check. */
export async function runLedgerScenario(urls: string[], db: Db, ops: Op[], tally = newTally()): Promise<void> {
  const { key, ids } = await fundedAccounts(urls, ACCOUNTS, START);
  const post = (url: string, path: string, json: unknown, headers: Record<string, string> = {}) =>
    call(url, 'POST', path, { key, json, headers });
  const targets: string[] = [];
  for (const t of TARGETS) {
    const body = { from_account_id: ids[t.from], to_account_id: ids[t.to], amount: t.amount, currency: 'USD' };
    const made = await post(urls[0]!, '/v1/fintech/transfers', body);
    assert.equal(made.status, 200, made.text);
    targets.push(made.body.id);
  }
  const sends = ops.flatMap((op, n) => {
    const { path, json } = request(op, ids, targets);
    const headers = { 'idempotency-key': `op-${n}` };
    return (op.retry ? [0, 1] : [0]).map((k) => ({
      op,
      n,
      reply: post(urls[(n + k) % urls.length]!, path, json, headers),
    }));
  });
  const replies = await Promise.all(sends.map(async (s) => ({ ...s, reply: await s.reply })));
  const acknowledged = new Map<number, { op: Op; body: { id: string } }>();
  tally.sent += replies.length;
  for (const { op, n, reply } of replies) {
    assertRefusal(op, reply);
    if (reply.status !== 200) {
      tally.refused[reply.body.code] = (tally.refused[reply.body.code] ?? 0) + 1;
      continue;
    }
    tally.acknowledged++;
    const earlier = acknowledged.get(n);
    if (earlier !== undefined) assert.equal(reply.body.id, earlier.body.id, 'a retry answers with the same object');
    acknowledged.set(n, { op, body: reply.body });
  }
  await checkAfterwards(urls[0]!, key, db, ids, targets, [...acknowledged.values()]);
}

async function checkAfterwards(
  url: string,
  key: string,
  db: Db,
  ids: string[],
  targets: string[],
  acknowledged: { op: Op; body: { id: string } }[],
): Promise<void> {
  const expected = ids.map(() => START);
  let moves = TARGETS.length;
  let transfers = TARGETS.length;
  for (const t of TARGETS) {
    expected[t.from]! -= t.amount;
    expected[t.to]! += t.amount;
  }
  // Each acknowledged reversal once (a retry's answer is the same object): listed, summed, its money moved back.
  const reversals: Sent[] = acknowledged.flatMap(({ op, body }) =>
    op.kind === 'reverse'
      ? [
          {
            reversal: { target: op.target, amount: { kind: 'part' as const, part: op.part } },
            target: { id: targets[op.target]!, ...TARGETS[op.target]! },
            reply: { status: 200, body, text: JSON.stringify(body), headers: new Headers() },
          },
        ]
      : [],
  );
  const all = TARGETS.map((t, i) => ({ id: targets[i]!, ...t }));
  await checkReversals(url, key, reversals, expected, {}, all);
  moves += reversals.length;
  for (const { op, body } of acknowledged) {
    if (op.kind === 'transfer') {
      expected[op.from]! -= op.amount;
      expected[op.to]! += op.amount;
      transfers++;
      moves++;
      const stored = await call(url, 'GET', `/v1/fintech/transfers/${body.id}`, { key });
      assert.deepEqual(stored.body, body, 'every acknowledged transfer exists');
    } else if (op.kind === 'deposit' || op.kind === 'withdraw') {
      expected[op.at]! += op.kind === 'deposit' ? op.amount : -op.amount;
      moves++;
    }
  }
  for (const [i, id] of ids.entries()) {
    const account = await call(url, 'GET', `/v1/fintech/accounts/${id}`, { key });
    assert.equal(account.body.available_balance.amount, expected[i], `balance of account ${i}`);
    assert.ok(account.body.available_balance.amount >= 0);
  }
  const orgId = (await db.selectFrom('accounts').select('org_id').where('id', '=', ids[0]!).executeTakeFirstOrThrow())
    .org_id;
  const count = async (table: 'transfers' | 'ledger_journals') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('org_id', '=', orgId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  assert.equal(await count('transfers'), transfers, 'every acknowledged transfer once; no refused one written');
  // The four opening deposits, then exactly one journal per acknowledged movement.
  assert.equal(await count('ledger_journals'), ids.length + moves, 'refused movements wrote nothing');
  assert.equal(await countLedgerViolations(db), 0, 'ledger verify passes');
  assert.equal(await countLedgerViolations(db, 2), 0, 'and so it does two journals or accounts at a time');
}
