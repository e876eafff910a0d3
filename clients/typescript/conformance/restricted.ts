/**
 * Step 24 of the conformance scenario (clients/README.md): a read-only restricted key reads an account and its
 * balances, and its attempt to move money is refused with 403 permission_denied before anything moves.
 */
import assert from 'node:assert/strict';
import { PlinthClient } from '@plinth/client';
import { refused, step } from './helpers.js';

export async function restrictedStep(plinth: PlinthClient, baseUrl: string): Promise<void> {
  await step('24 a read-only key reads an account and its balances, and may not move money', async () => {
    const payer = await plinth.accounts.create({ type: 'business', country: 'US' });
    const payee = await plinth.accounts.create({ type: 'business', country: 'US' });
    await plinth.sandbox.deposit(payer.id, { amount: 1000 });

    const readOnly = await plinth.apiKeys.create({
      name: 'read-only',
      permissions: { accounts: 'read', transactions: 'read' },
    });
    assert.match(readOnly.key, /^rk_test_/);
    const { accounts, transactions, transfers, api_keys } = readOnly.permissions ?? assert.fail('no permissions');
    assert.deepEqual([accounts, transactions, transfers, api_keys], ['read', 'read', 'none', 'none']);
    const listed = (await plinth.apiKeys.retrieve(readOnly.id)).permissions;
    assert.deepEqual([listed?.accounts, listed?.sandbox], ['read', 'none']);
    if (readOnly.id === '') {
      // Never sent: a misspelt group must not compile (the generated request type takes any name).
      // @ts-expect-error acounts is not a group
      await plinth.apiKeys.create({ permissions: { acounts: 'read' } });
    }

    const reader = new PlinthClient({ baseUrl, apiKey: readOnly.key });
    assert.equal((await reader.accounts.retrieve(payer.id)).id, payer.id);
    assert.equal((await reader.accounts.balances(payer.id)).current_balance.amount, 1000);
    const transfer = { from_account_id: payer.id, to_account_id: payee.id, amount: 100, currency: 'USD' };
    await refused(() => reader.transfers.create(transfer), 403, 'permission_denied');

    const after = await plinth.accounts.balances(payer.id);
    assert.deepEqual([after.current_balance.amount, after.available_balance.amount], [1000, 1000]);
    assert.equal((await plinth.accounts.balances(payee.id)).current_balance.amount, 0);
  });
}
