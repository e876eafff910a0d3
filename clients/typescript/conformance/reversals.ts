/**
 * Step 23 of the conformance scenario (clients/README.md): a posted transfer reversed in part, the receiver's balance
 * read at an instant between the transfer and the reversal and now, a statement around both that adds up, and a
 * nickname set, read back and cleared.
 */
import assert from 'node:assert/strict';
import type { PlinthClient } from '@plinth/client';
import { all, step } from './helpers.js';

/**
 * A past instant that splits time: every write answered before the call is at or before it, every write sent after
 * the call returns is after it. Stored times have millisecond precision, so it is one millisecond after now, and the
 * call returns once the clock has passed it (the API refuses a time in the future).
 */
async function splitInstant(): Promise<Date> {
  const at = Date.now() + 1;
  while (Date.now() <= at) await new Promise((wait) => setTimeout(wait, 1));
  return new Date(at);
}

export async function reversalStep(plinth: PlinthClient): Promise<void> {
  await step('23 a partial reversal, balances before and after it, a statement, nicknames', async () => {
    const payer = await plinth.accounts.create({ type: 'business', country: 'US', nickname: 'Operating' });
    assert.equal(payer.nickname, 'Operating');
    const payee = await plinth.accounts.create({ type: 'business', country: 'US', metadata: { team: 'ops' } });
    assert.equal(payee.nickname, null);
    await plinth.sandbox.deposit(payer.id, { amount: 5000 });
    const transfer = await plinth.transfers.create({
      from_account_id: payer.id,
      to_account_id: payee.id,
      amount: 3000,
      currency: 'USD',
    });
    assert.deepEqual([transfer.amount_reversed, transfer.reversed], [0, false]);
    const beforeReversal = await splitInstant();

    const reversal = await plinth.transfers.reverse(transfer.id, { amount: 1000, description: 'refund' });
    assert.match(reversal.id, /^trr_/);
    assert.deepEqual([reversal.transfer_id, reversal.amount, reversal.currency], [transfer.id, 1000, 'USD']);
    const reversed = await plinth.transfers.retrieve(transfer.id);
    assert.deepEqual([reversed.amount_reversed, reversed.reversed], [1000, false]);
    const listed = await all(plinth.transfers.listReversals(transfer.id, { limit: 1 }));
    assert.deepEqual(
      listed.map((r) => r.id),
      [reversal.id],
    );
    assert.equal((await plinth.transfers.retrieveReversal(transfer.id, reversal.id)).amount, 1000);

    const then = await plinth.accounts.balances(payee.id, { at: beforeReversal });
    assert.deepEqual([then.current_balance.amount, then.available_balance.amount], [3000, 3000]);
    const now = await plinth.accounts.balances(payee.id);
    assert.deepEqual([now.current_balance.amount, now.available_balance.amount], [2000, 2000]);

    const from = new Date(Date.parse(transfer.created_at) - 60_000);
    const statement = await plinth.accounts.statement(payee.id, { from, to: await splitInstant() });
    const { opening_balance: opening, closing_balance: closing, credits, debits } = statement;
    assert.deepEqual([credits.count, credits.amount, debits.count, debits.amount], [1, 3000, 1, 1000]);
    assert.equal(closing, opening + credits.amount - debits.amount);
    assert.equal(closing, now.current_balance.amount);

    const named = await plinth.accounts.update(payee.id, { nickname: 'Payroll' });
    assert.equal((await plinth.accounts.retrieve(payee.id)).nickname, 'Payroll');
    assert.deepEqual(named.metadata, { team: 'ops' });
    const cleared = await plinth.accounts.update(payee.id, { nickname: '' });
    assert.deepEqual([cleared.nickname, cleared.metadata], [null, { team: 'ops' }]);
  });
}
