import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { call, useServer } from '../../helpers/server.ts';

/** Every money movement and lifecycle change reports itself in the outbox, in the same write (docs/api.md#events). */
describe('fintech events', () => {
  const server = useServer();
  let key: string;
  before(async () => {
    key = await server.key('events-fintech');
  });

  const post = (path: string, json: unknown = {}) => call(server.url, 'POST', path, { key, json });
  const events = async () => (await call(server.url, 'GET', '/v1/events?limit=100', { key })).body.data.reverse();

  test('deposits, transfers and lifecycle changes each emit their events, in order, with the objects', async () => {
    const a = (await post('/v1/fintech/accounts', { type: 'business', country: 'US' })).body;
    const b = (await post('/v1/fintech/accounts', { type: 'business', country: 'US' })).body;
    const deposit = (await post(`/v1/sandbox/fintech/accounts/${a.id}/deposits`, { amount: 1000 })).body;
    const transfer = (
      await post('/v1/fintech/transfers', { from_account_id: a.id, to_account_id: b.id, amount: 400, currency: 'USD' })
    ).body;
    assert.equal(transfer.status, 'posted');
    const refused = await post('/v1/fintech/transfers', {
      from_account_id: a.id,
      to_account_id: b.id,
      amount: 10_000,
      currency: 'USD',
    });
    assert.equal(refused.status, 409);
    assert.equal((await post(`/v1/fintech/accounts/${b.id}/freeze`, { reason: 'compliance_review' })).status, 200);
    assert.equal((await post(`/v1/fintech/accounts/${b.id}/freeze`, { reason: 'other' })).status, 200); // no change
    assert.equal((await post(`/v1/fintech/accounts/${b.id}/unfreeze`)).status, 200);

    const all = await events();
    const money = all.filter((e: { type: string }) => e.type !== 'api_key.created');
    assert.deepEqual(
      money.map((e: { type: string }) => e.type),
      [
        'fintech.account.created',
        'fintech.account.created',
        'fintech.transaction.created',
        'fintech.transfer.created',
        'fintech.transaction.created',
        'fintech.transaction.created',
        'fintech.account.frozen',
        'fintech.account.unfrozen',
      ],
      'one event per change; a refused transfer and a repeated freeze emit nothing',
    );
    const sequences = all.map((e: { sequence: number }) => e.sequence);
    assert.deepEqual(
      sequences,
      sequences.map((_: number, i: number) => sequences[0] + i),
      'gap-free, in order',
    );
    assert.deepEqual(money[2].data.object, deposit);
    assert.deepEqual(money[3].data.object, transfer);
    const sides = [money[4].data.object, money[5].data.object].map((t) => [t.account_id, t.amount, t.balance_after]);
    assert.deepEqual(sides.sort(), [
      [a.id, -400, 600],
      [b.id, 400, 400],
    ]);
    assert.equal(money[6].data.object.status, 'frozen');
    assert.equal(money[7].data.object.status, 'active');
  });
});
