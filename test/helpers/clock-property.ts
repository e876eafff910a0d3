import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Db } from '../../src/db/database.ts';
import { countLedgerViolations } from '../../src/products/fintech/ledger/verify.ts';
import { fundedAccounts } from './money.ts';
import { checkAgrees, checkEventsOnce, eventsOf } from './payments-property.ts';
import { call, type Reply } from './server.ts';

/**
 * The sandbox clock run from several places at once (docs/api.md#the-sandbox-clock): an org's sandbox has many ACH
 * payments (some returned by a rule a day after settlement) and pending transfers with expiries; then, all at once,
 * clock advances to the same or different moments, spread over one or more server processes, race on-demand
 * settlements of some payments and posts or voids of some holds. Afterwards each item due by the clock ran exactly
 * once: nothing is left due at or before the clock's now; each payment has one `fintech.payment.updated` per status
 * change; each hold ended at most once (one of `fintech.transfer.posted|voided|expired`), expired exactly when its
 * `expires_at` came and nothing ended it first; then, after one more advance past everything, the same holds of the
 * whole run, the balances add up, and `ledger verify` passes.
 */
const START = 100_000;
const RETURNED_LATER = 77;

export type Plan = {
  payments: { amount: number; settle: boolean }[];
  holds: { amount: number; expiresInHours: number; end: 'none' | 'post' | 'void' }[];
  /** Each advance's target, hours after the clock at the start, and the server it is sent to. */
  advances: { hours: number; server: number }[];
};

export const plan: fc.Arbitrary<Plan> = fc.record({
  payments: fc.array(
    fc.record({
      amount: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 900 }) }, fc.constant(RETURNED_LATER)),
      settle: fc.boolean(),
    }),
    { minLength: 1, maxLength: 30 },
  ),
  holds: fc.array(
    fc.record({
      amount: fc.integer({ min: 1, max: 900 }),
      expiresInHours: fc.integer({ min: 1, max: 100 }),
      end: fc.constantFrom('none' as const, 'none' as const, 'post' as const, 'void' as const),
    }),
    { maxLength: 15 },
  ),
  // Often the same moment twice: a small set of targets.
  advances: fc.array(fc.record({ hours: fc.constantFrom(0, 12, 30, 50, 80, 120), server: fc.nat(1) }), {
    minLength: 2,
    maxLength: 8,
  }),
});

const ENDED = ['fintech.transfer.posted', 'fintech.transfer.voided', 'fintech.transfer.expired'] as const;

/** Each transfer of `ids`: how many events ended it, by type. */
async function endingsOf(url: string, key: string): Promise<Map<string, string[]>> {
  const endings = new Map<string, string[]>();
  for (const type of ENDED)
    for (const e of await eventsOf(url, key, type))
      endings.set(e.data.object.id, [...(endings.get(e.data.object.id) ?? []), type]);
  return endings;
}

export async function runClockScenario(urls: string[], db: Db, p: Plan, tally: Record<string, number> = {}) {
  const { key, ids } = await fundedAccounts(urls, 2, START);
  const [from, to] = ids as [string, string];
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
  await ok('/v1/sandbox/fintech/payment_rules', {
    match: { amount: RETURNED_LATER },
    action: { return: 'R01', at: 'P1D' },
  });
  const start = Date.parse((await send(0, 'GET', '/v1/sandbox/clock')).body.now);
  const payments = await Promise.all(
    p.payments.map((x, n) =>
      send(n, 'POST', '/v1/fintech/payments', {
        account_id: from,
        external_account_id: external.id,
        amount: x.amount,
        currency: 'USD',
        rail: 'ach',
      }),
    ),
  );
  const holds = await Promise.all(
    p.holds.map((h, n) =>
      send(n, 'POST', '/v1/fintech/transfers', {
        from_account_id: from,
        to_account_id: to,
        amount: h.amount,
        currency: 'USD',
        pending: true,
        expires_in_seconds: h.expiresInHours * 3600,
      }),
    ),
  );
  for (const reply of [...payments, ...holds]) assert.equal(reply.status, 200, reply.text);

  const at = (hours: number) => new Date(start + hours * 3_600_000).toISOString();
  const allowed = (reply: Reply, codes: string[]) =>
    assert.ok(reply.status === 200 || codes.includes(reply.body?.code), `${reply.status} ${reply.text}`);
  const [advanced, settled, ended] = await Promise.all([
    Promise.all(p.advances.map((a) => send(a.server, 'POST', '/v1/sandbox/clock/advance', { to: at(a.hours) }))),
    Promise.all(
      payments.map((reply, n) =>
        p.payments[n]!.settle ? send(n, 'POST', `/v1/sandbox/fintech/payments/${reply.body.id}/settle`, {}) : null,
      ),
    ),
    Promise.all(
      holds.map((reply, n) => {
        const end = p.holds[n]!.end;
        return end === 'none' ? null : send(n + 1, 'POST', `/v1/fintech/transfers/${reply.body.id}/${end}`, {});
      }),
    ),
  ]);
  // An advance to a moment another already passed is refused; a settle of a payment the clock settled (or returned)
  // first; a post or void of a hold that expired first.
  for (const reply of advanced) allowed(reply, ['parameter_invalid']);
  for (const reply of settled) if (reply !== null) allowed(reply, ['payment_state_invalid']);
  for (const reply of ended) if (reply !== null) allowed(reply, ['transfer_not_pending', 'transfer_expired']);
  for (const reply of [...advanced, ...settled, ...ended])
    if (reply !== null)
      tally[reply.status === 200 ? 'ok' : reply.body.code] =
        (tally[reply.status === 200 ? 'ok' : reply.body.code] ?? 0) + 1;

  const check = async (final: boolean) => {
    const clock = (await send(0, 'GET', '/v1/sandbox/clock')).body;
    const orgId = (await db.selectFrom('accounts').select('org_id').where('id', '=', from).executeTakeFirstOrThrow())
      .org_id;
    const due = await db
      .selectFrom('payments')
      .select(['id', 'due_at', 'due_action'])
      .where('org_id', '=', orgId)
      .where('due_at', '<=', clock.now)
      .execute();
    assert.deepEqual(due, [], `nothing is left due by the clock's now, ${clock.now}`);
    const listed = await Promise.all(payments.map((r) => send(0, 'GET', `/v1/fintech/payments/${r.body.id}`)));
    for (const reply of listed) {
      await checkAgrees(urls[0]!, key, reply.body);
      if (final) assert.ok(['settled', 'returned'].includes(reply.body.status), reply.text);
      tally[`payment ${reply.body.status}`] = (tally[`payment ${reply.body.status}`] ?? 0) + 1;
    }
    await checkEventsOnce(
      urls[0]!,
      key,
      listed.map((r) => r.body),
    );
    const endings = await endingsOf(urls[0]!, key);
    for (const [n, reply] of holds.entries()) {
      const hold = (await send(0, 'GET', `/v1/fintech/transfers/${reply.body.id}`)).body;
      const seen = endings.get(hold.id) ?? [];
      if (hold.status === 'pending') {
        assert.deepEqual(seen, [], `hold ${hold.id} is pending: nothing ended it`);
        assert.ok(
          hold.expires_at > clock.now,
          `hold ${hold.id} expired at ${hold.expires_at}, still pending at ${clock.now}`,
        );
      } else assert.deepEqual(seen, [`fintech.transfer.${hold.status}`], `hold ${hold.id} ended once`);
      if (hold.status === 'expired') assert.notEqual(ended[n]?.status, 200, 'a hold ended by hand does not expire');
      tally[`hold ${hold.status}`] = (tally[`hold ${hold.status}`] ?? 0) + 1;
    }
    // Each payment's transfer: posted at most once, voided at most once, never both.
    for (const reply of listed) {
      const seen = endings.get(reply.body.transfer_id) ?? [];
      assert.ok(seen.length <= 1, `the transfer of ${reply.body.id} ended ${seen}`);
    }
    assert.equal(await countLedgerViolations(db), 0, 'ledger verify passes');
    return listed.map((r) => r.body);
  };
  await check(false);
  // Past everything: every payment settles (and those of the rule are returned a day on), every hold expires.
  const last = await send(1, 'POST', '/v1/sandbox/clock/advance', { to: at(24 * 10) });
  assert.equal(last.status, 200, last.text);
  const final = await check(true);
  let moved = 0;
  for (const payment of final) if (payment.status === 'settled') moved += payment.amount;
  for (const reply of holds) {
    const hold = (await send(0, 'GET', `/v1/fintech/transfers/${reply.body.id}`)).body;
    if (hold.status === 'posted') moved += hold.posted_amount;
  }
  const balances = await Promise.all(ids.map((id) => send(0, 'GET', `/v1/fintech/accounts/${id}`)));
  const outToPayments = final.reduce((sum, p) => sum + (p.status === 'settled' ? p.amount : 0), 0);
  assert.equal(balances[0]!.body.current_balance.amount, START - moved, 'the sender paid what settled and posted');
  assert.equal(balances[0]!.body.available_balance.amount, START - moved, 'nothing is held any more');
  assert.equal(balances[1]!.body.current_balance.amount, START + moved - outToPayments, 'the receiver got what posted');
}
