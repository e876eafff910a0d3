import assert from 'node:assert/strict';
import fc from 'fast-check';
import { call, type Reply } from './server.ts';

/**
 * Reversals racing everything else (docs/api.md#correcting-a-transfer), for the money property tests. Each names a
 * target, one of the run's transfers (plain ones, posted, and held ones, which a racing post, void or expiry may or
 * may not have posted), picked modulo their count so that several often race on one, and how much to reverse: all
 * that remains (no amount), a part of what the transfer moved, or more than it ever moved.
 */
export type Reversal = {
  target: number;
  amount: { kind: 'rest' } | { kind: 'part'; part: number } | { kind: 'beyond' };
};

export const reversal: fc.Arbitrary<Reversal> = fc.record({
  target: fc.nat(11),
  amount: fc.oneof(
    { weight: 1, arbitrary: fc.constant({ kind: 'rest' as const }) },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('part' as const),
        part: fc.double({ min: 0.01, max: 0.7, noNaN: true }),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'beyond' as const }) },
  ),
});

/** A transfer that reversals may aim at: its id, its sides (indexes of the run's accounts) and the amount it asked. */
export type Target = { id: string; from: number; to: number; amount: number };

/** Why a reversal may be refused under these races; each refusal wrote nothing. */
const REFUSALS = ['transfer_not_reversible', 'insufficient_funds', 'parameter_invalid'];

export type Sent = { reversal: Reversal; target: Target; reply: Reply };

/** The reversal's request, aimed at one of `targets` (at least one): its target, path and body. */
export function reversalRequest(r: Reversal, targets: Target[]) {
  const target = targets[r.target % targets.length]!;
  const amount =
    r.amount.kind === 'rest'
      ? undefined
      : r.amount.kind === 'beyond'
        ? target.amount + 1
        : Math.max(1, Math.floor(target.amount * r.amount.part));
  return {
    reversal: r,
    target,
    path: `/v1/fintech/transfers/${target.id}/reversals`,
    json: amount === undefined ? {} : { amount },
  };
}

async function listAll(url: string, key: string, transferId: string) {
  const all: { id: string; amount: number; transfer_id: string }[] = [];
  for (let after = ''; ; ) {
    const path = `/v1/fintech/transfers/${transferId}/reversals?limit=100${after ? `&starting_after=${after}` : ''}`;
    const page = await call(url, 'GET', path, { key });
    assert.equal(page.status, 200, page.text);
    all.push(...page.body.data);
    if (!page.body.has_more) return all;
    after = page.body.data.at(-1).id;
  }
}

/**
 * After the run, through the API: each refusal is one a correct server may give (beyond-remaining only when an amount
 * was sent, and more than ever moved never succeeds); each transfer's reversals are exactly the acknowledged ones,
 * each once and as acknowledged; `amount_reversed` is their sum and never above `posted_amount`. Then the money that
 * the successes moved back is added to `expected` (by account index). `tally` counts the outcomes, for diagnostics;
 * `targets` are checked too when no reversal was sent them (none may then be listed).
 */
export async function checkReversals(
  url: string,
  key: string,
  sent: Sent[],
  expected: number[],
  tally: Record<string, number> = {},
  targets: Target[] = [],
): Promise<void> {
  const byTarget = new Map<string, { target: Target; acknowledged: Map<string, number> }>();
  for (const target of targets) byTarget.set(target.id, { target, acknowledged: new Map() });
  for (const { reversal, target, reply } of sent) {
    const entry = byTarget.get(target.id) ?? { target, acknowledged: new Map() };
    byTarget.set(target.id, entry);
    const outcome = reply.status === 200 ? 'reversed' : String(reply.body?.code);
    tally[outcome] = (tally[outcome] ?? 0) + 1;
    if (reply.status !== 200) {
      assert.ok(REFUSALS.includes(reply.body?.code), `reversal ${JSON.stringify(reversal)}: ${reply.text}`);
      if (reply.body.code === 'parameter_invalid') assert.notEqual(reversal.amount.kind, 'rest', reply.text);
      continue;
    }
    assert.notEqual(reversal.amount.kind, 'beyond', `more than ever moved was reversed: ${reply.text}`);
    assert.equal(reply.body.transfer_id, target.id);
    entry.acknowledged.set(reply.body.id, reply.body.amount);
    expected[target.to]! -= reply.body.amount;
    expected[target.from]! += reply.body.amount;
  }
  for (const { target, acknowledged } of byTarget.values()) {
    const transfer = (await call(url, 'GET', `/v1/fintech/transfers/${target.id}`, { key })).body;
    const listed = await listAll(url, key, target.id);
    const ids = listed.map((r) => r.id).sort();
    assert.deepEqual(ids, [...acknowledged.keys()].sort(), `the reversals of ${target.id} are the acknowledged ones`);
    for (const r of listed) assert.equal(r.amount, acknowledged.get(r.id), `reversal ${r.id} as acknowledged`);
    const sum = listed.reduce((total, r) => total + r.amount, 0);
    assert.equal(transfer.amount_reversed, sum, `amount_reversed of ${target.id} is the sum of its reversals`);
    assert.ok(sum <= (transfer.posted_amount ?? 0), `${target.id} reversed ${sum}, more than it posted`);
    assert.equal(transfer.reversed, sum > 0 && sum === transfer.posted_amount);
  }
}
