import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Db } from '../../src/db/database.ts';
import { countLedgerViolations } from '../../src/products/fintech/ledger/verify.ts';
import { fundedAccounts } from './money.ts';
import { call, type Reply } from './server.ts';

/**
 * The ledger's property under concurrency (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations): random transfers, deposits, withdrawals, freezes,
 * unfreezes and closes over a few accounts, all sent at once (some twice with the same Idempotency-Key, as a
 * client retrying would), across one or more server processes. Afterwards every invariant must hold.
 */
const ACCOUNTS = 4;
const START = 1000;

export type Op =
  | { kind: 'transfer'; from: number; to: number; amount: number; retry: boolean }
  | { kind: 'deposit' | 'withdraw'; at: number; amount: number; retry: boolean }
  | { kind: 'freeze' | 'unfreeze' | 'close'; at: number; retry: boolean };

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
]);

function request(op: Op, ids: string[]): { path: string; json: unknown } {
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
  assert.ok(sameAccount || REFUSALS.has(reply.body?.code), `${JSON.stringify(op)} → ${reply.status} ${reply.text}`);
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
  const sends = ops.flatMap((op, n) => {
    const { path, json } = request(op, ids);
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
  await checkAfterwards(urls[0]!, key, db, ids, [...acknowledged.values()]);
}

async function checkAfterwards(
  url: string,
  key: string,
  db: Db,
  ids: string[],
  acknowledged: { op: Op; body: { id: string } }[],
): Promise<void> {
  const expected = ids.map(() => START);
  let moves = 0;
  let transfers = 0;
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
