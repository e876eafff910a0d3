/**
 * Steps 20–21 of the conformance scenario (clients/README.md): money held before it moves (pending transfers
 * posted in part, voided, expired) and the integrator's own references (metadata) with the list filters, sent as
 * `metadata[key]=value` and `created[gte]=…`, which the server must understand for the filtered lists to come back
 * exactly as asserted.
 */
import assert from 'node:assert/strict';
import type { Account, PlinthClient } from '@plinth/client';
import { all, refused, step } from './helpers.js';

export async function holdSteps(plinth: PlinthClient, first: Account, second: Account): Promise<void> {
  const pending = (amount: number, extra: { metadata?: Record<string, string>; expires_in_seconds?: number } = {}) =>
    plinth.transfers.create({
      from_account_id: first.id,
      to_account_id: second.id,
      amount,
      currency: 'USD',
      pending: true,
      ...extra,
    });
  const held: string[] = [];

  await step('20 pending transfers: hold, post part, void, expire', async () => {
    const had = (await plinth.accounts.retrieve(first.id)).current_balance.amount;
    await plinth.sandbox.deposit(first.id, { amount: 10000 });
    const hold = await pending(4000, { metadata: { order: 'A-1' }, expires_in_seconds: 3600 });
    assert.equal(hold.status, 'pending');
    assert.ok(hold.expires_at, 'expires_at is set');
    assert.equal(hold.posted_amount, null);
    const holding = await plinth.accounts.retrieve(first.id);
    assert.equal(holding.current_balance.amount, had + 10000);
    assert.equal(holding.available_balance.amount, had + 10000 - 4000);
    const posted = await plinth.transfers.post(hold.id, { amount: 2500 });
    assert.equal(posted.status, 'posted');
    assert.equal(posted.posted_amount, 2500);
    const after = await plinth.accounts.retrieve(first.id);
    assert.equal(after.available_balance.amount, after.current_balance.amount);
    assert.equal(after.current_balance.amount, had + 10000 - 2500);

    const voidable = await pending(1000);
    assert.equal((await plinth.transfers.void(voidable.id)).status, 'voided');
    await refused(() => plinth.transfers.post(voidable.id), 409, 'transfer_not_pending');

    const lapsing = await pending(500);
    assert.equal((await plinth.sandbox.expireTransfer(lapsing.id)).status, 'expired');
    await refused(() => plinth.transfers.post(lapsing.id), 409, 'transfer_expired');
    held.push(hold.id, voidable.id, lapsing.id);
  });

  await step('21 metadata and filters: update, list by metadata, status and created', async () => {
    const tagged = await plinth.accounts.update(first.id, { metadata: { customer: 'c-42' } });
    assert.deepEqual(tagged.metadata, { customer: 'c-42' });
    const customers = await all(plinth.accounts.list({ metadata: { customer: 'c-42' } }));
    assert.deepEqual(
      customers.map((a) => a.id),
      [first.id],
    );
    const stillPending = (await all(plinth.transfers.list({ status: 'pending' }))).map((t) => t.id);
    assert.deepEqual(
      stillPending.filter((id) => held.includes(id)),
      [],
    );
    const orders = await all(plinth.transfers.list({ metadata: { order: 'A-1' } }));
    assert.deepEqual(
      orders.map((t) => t.id),
      [held[0]],
    );
    const untagged = await plinth.transfers.update(held[0]!, { metadata: { order: '' } });
    assert.deepEqual(untagged.metadata, {});
    const since = await all(plinth.events.list({ created: { gte: first.created_at }, limit: 100 }));
    assert.ok(since.length >= 1, 'at least one event since the first account was created');
  });
}
