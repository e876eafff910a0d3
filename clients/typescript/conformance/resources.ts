/**
 * Steps 13–19 of the conformance scenario (clients/README.md): every other resource, through the layer's methods
 * only — freeze, unfreeze and close, a withdrawal, transfers by account, events, the rest of a webhook endpoint's
 * life and its deliveries, API keys.
 */
import assert from 'node:assert/strict';
import type { Account, PlinthClient, WebhookEndpointWithSecret } from '@plinth/client';
import { all, refused, step, waitFor } from './helpers.js';

export interface Earlier {
  first: Account;
  second: Account;
  /** The transfer of step 4b, first → second. */
  transferId: string;
  /** The endpoint of step 12 and the id of its test event. */
  endpoint: WebhookEndpointWithSecret;
  testEventId: string;
}

export async function resourceSteps(plinth: PlinthClient, earlier: Earlier): Promise<void> {
  const { first, second, transferId, endpoint, testEventId } = earlier;

  await step('13 freeze, list frozen, a transfer to it refused, unfreeze', async () => {
    const frozen = await plinth.accounts.freeze(second.id, { reason: 'compliance_review', note: 'conformance' });
    assert.equal(frozen.status, 'frozen');
    assert.equal(frozen.status_details?.reason, 'compliance_review');
    const listed = await all(plinth.accounts.list({ status: 'frozen' }));
    assert.deepEqual(
      listed.map((a) => a.id),
      [second.id],
    );
    const transfer = { from_account_id: first.id, to_account_id: second.id, amount: 1, currency: 'USD' };
    const error = await refused(() => plinth.transfers.create(transfer), 409, 'account_frozen');
    assert.equal(error.param, 'to_account_id');
    const active = await plinth.accounts.unfreeze(second.id);
    assert.equal(active.status, 'active');
    assert.equal(active.status_details, null);
  });

  await step('14 withdraw (sandbox)', async () => {
    const debit = await plinth.sandbox.withdraw(first.id, { amount: 500 });
    assert.equal(debit.amount, -500);
    assert.equal(debit.balance_after, 7000);
  });

  await step('15 transfers of an account', async () => {
    const transfers = await all(plinth.transfers.list({ account_id: second.id }));
    assert.deepEqual(
      transfers.map((t) => t.id),
      [transferId],
    );
    const transfer = await plinth.transfers.retrieve(transferId);
    assert.equal(transfer.id, transferId);
    assert.equal(transfer.to_account_id, second.id);
  });

  await step('16 close an account; a deposit to it refused', async () => {
    const third = await plinth.accounts.create({ type: 'business', country: 'US' });
    const closed = await plinth.accounts.close(third.id, { reason: 'customer_request' });
    assert.equal(closed.status, 'closed');
    assert.ok(closed.closed_at, 'closed_at is set');
    await refused(() => plinth.sandbox.deposit(third.id, { amount: 1 }), 409, 'account_closed');
  });

  await step('17 events by type, newest first; retrieve one', async () => {
    const events = await all(plinth.events.list({ type: 'fintech.account.created', limit: 2 }));
    assert.ok(events.length >= 3, `expected at least 3 events, got ${events.length}`);
    for (const event of events) assert.equal(event.type, 'fintech.account.created');
    for (let i = 1; i < events.length; i++) assert.ok(events[i]!.sequence < events[i - 1]!.sequence);
    const again = await plinth.events.retrieve(events[0]!.id);
    assert.equal(again.id, events[0]!.id);
    assert.equal(again.sequence, events[0]!.sequence);
  });

  await step('18 update, deliveries, retry, rotate, list and delete a webhook endpoint', async () => {
    const updated = await plinth.webhookEndpoints.update(endpoint.id, { description: 'updated' });
    assert.equal(updated.description, 'updated');
    // The receiver has the delivery (step 12); the server marks it succeeded once the answer is in.
    const delivery = await waitFor('the test delivery, succeeded', 10, async () =>
      (await all(plinth.webhookEndpoints.listDeliveries(endpoint.id))).find(
        (d) => d.event_id === testEventId && d.status === 'succeeded',
      ),
    );
    const ofEvent = await all(plinth.events.listDeliveries(testEventId));
    assert.ok(ofEvent.some((d) => d.id === delivery.id));
    const retried = await plinth.webhookDeliveries.retry(delivery.id);
    assert.equal(retried.id, delivery.id);
    const rotated = await plinth.webhookEndpoints.rotateSecret(endpoint.id);
    const secret: string = rotated.secret;
    assert.match(secret, /^whsec_/);
    assert.notEqual(secret, endpoint.secret);
    const endpoints = await all(plinth.webhookEndpoints.list());
    assert.ok(endpoints.some((e) => e.id === endpoint.id));
    const deleted = await plinth.webhookEndpoints.delete(endpoint.id);
    assert.equal(deleted.deleted, true);
    await refused(() => plinth.webhookEndpoints.retrieve(endpoint.id), 404, 'resource_not_found');
  });

  await step('19 create, list, retrieve and revoke an API key', async () => {
    const created = await plinth.apiKeys.create({ name: 'conformance' });
    const key: string = created.key;
    assert.match(key, /^sk_test_/);
    assert.equal(created.name, 'conformance');
    const keys = await all(plinth.apiKeys.list());
    assert.ok(keys.some((k) => k.id === created.id));
    assert.equal((await plinth.apiKeys.retrieve(created.id)).id, created.id);
    const revoked = await plinth.apiKeys.revoke(created.id);
    assert.ok(revoked.revoked_at, 'revoked_at is set');
  });
}
