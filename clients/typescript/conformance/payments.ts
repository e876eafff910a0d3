/**
 * Step 26 of the conformance scenario (clients/README.md): money in and out over the rails on the sandbox clock. An
 * inbound ACH credit of 100 to a new account number, an ACH payment of 60 out (held at once: available −60, current
 * unchanged), the clock advanced to the next business day after settlement (settled), a rule that returns it R01
 * two days after settlement, the clock advanced again (returned, with a reversal of its transfer), and a statement
 * that adds up. It runs last: it moves the organisation's clock days ahead.
 */
import assert from 'node:assert/strict';
import type { PlinthClient } from '@plinth/client';
import { all, step } from './helpers.js';

/** 15:00 UTC on the first weekday after `iso`: after that day's 09:00 New York settlement, before its cut-off. */
export function afterNextSettlement(iso: string): string {
  let at = Date.parse(iso);
  do at += 86_400_000;
  while ([0, 6].includes(new Date(at).getUTCDay()));
  return `${new Date(at).toISOString().slice(0, 10)}T15:00Z`;
}

export async function paymentStep(plinth: PlinthClient): Promise<void> {
  await step('26 payments: in 100, out 60 by ACH, settled on the clock, returned R01 by a rule', async () => {
    const account = await plinth.accounts.create({ type: 'business', country: 'US' });
    const number = await plinth.accountNumbers.create({ account_id: account.id, name: 'Main' });
    assert.match(number.account_number, /^[0-9]{12}$/, 'the number in full, in the create answer only');
    assert.equal((await plinth.accountNumbers.retrieve(number.id)).account_number, null);
    const balances = async () => {
      const a = await plinth.accounts.retrieve(account.id);
      return [a.current_balance.amount, a.available_balance.amount];
    };
    const start = (await plinth.sandbox.retrieveClock()).now;

    const inbound = await plinth.sandbox.inboundPayment({
      account_number: number.account_number,
      amount: 100,
      rail: 'ach',
      direction: 'credit',
      originator_name: 'Globex Corporation',
    });
    assert.deepEqual([inbound.status, inbound.direction, inbound.account_number_id], ['settled', 'inbound', number.id]);
    assert.deepEqual(await balances(), [100, 100]);

    // A weekday morning first, so that the cut-off and the settlement are the same in every run.
    await plinth.sandbox.advanceClock({ to: afterNextSettlement(start) });
    const external = await plinth.externalAccounts.create({
      routing_number: '021000021',
      account_number: '000123456789',
      account_holder_name: 'Acme Supplies LLC',
      account_type: 'checking',
    });
    const payment = await plinth.payments.create({
      account_id: account.id,
      external_account_id: external.id,
      amount: 60,
      currency: 'USD',
      rail: 'ach',
    });
    assert.equal(payment.status, 'pending_submission');
    assert.deepEqual(await balances(), [100, 40], 'held at once: available −60, current unchanged');

    const settledAt = afterNextSettlement((await plinth.sandbox.retrieveClock()).now);
    const clock = await plinth.sandbox.advanceClock({ to: settledAt });
    assert.equal(Date.parse(clock.now), Date.parse(settledAt));
    assert.equal((await plinth.payments.retrieve(payment.id)).status, 'settled');
    assert.deepEqual(await balances(), [40, 40]);

    // `_return`: the generated model's name for `return`, a word TypeScript reserves; it is sent as `return`.
    const action = { _return: 'R01', at: 'P2D' } as const;
    const rule = await plinth.sandbox.createPaymentRule({ match: { amount: 60 }, action });
    assert.match(rule.id, /^prule_/);
    await plinth.sandbox.advanceClock({ to: new Date(Date.parse(settledAt) + 3 * 86_400_000).toISOString() });
    const returned = await plinth.payments.retrieve(payment.id);
    assert.equal(returned.status, 'returned');
    assert.equal(returned.return_reason?.code, 'R01');
    const reversals = await all(plinth.transfers.listReversals(payment.transfer_id!));
    assert.equal(reversals.length, 1);
    assert.match(reversals[0]!.description ?? '', /^R01/);
    assert.deepEqual(await balances(), [100, 100]);

    const to = (await plinth.sandbox.retrieveClock()).now;
    const statement = await plinth.accounts.statement(account.id, { from: start, to });
    const { opening_balance: opening, closing_balance: closing, credits, debits } = statement;
    assert.equal(closing, opening + credits.amount - debits.amount);
    assert.equal(closing, 100);
  });
}
