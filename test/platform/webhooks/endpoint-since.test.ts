/**
 * An endpoint receives what happens from its creation on, on both backends. On PostgreSQL an event is numbered, and
 * its deliveries made, by a sequencer pass a moment after its write; here a connection of the test holds the pass's
 * lock, so the account's event is still unnumbered when a new endpoint is created. Before the endpoints were
 * filtered by creation time, that endpoint received the older event (SQLite never did: it fans out in the write).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { SEQUENCER_TURN } from '../../../src/platform/outbox/sequencer.ts';
import { BACKEND } from '../../helpers/database.ts';
import { type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { useServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

describe(`an endpoint receives only what happens from its creation on (${BACKEND})`, () => {
  const server = useServer();
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  test('an event numbered after a newer endpoint was created is not delivered to it', async () => {
    const api = await client(server, 'since');
    const pass = BACKEND === 'postgres' ? new pg.Client({ connectionString: server.databaseUrl }) : undefined;
    if (pass) {
      await pass.connect();
      await pass.query('begin');
      await pass.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [SEQUENCER_TURN]);
    }
    let accountId: string;
    try {
      const account = await api.post('/v1/fintech/accounts', { type: 'business', country: 'US' });
      assert.equal(account.status, 200, account.text);
      accountId = account.body.id;
      if (pass) {
        const { rows } = await pass.query('select count(*)::int as n from events where sequence is null');
        assert.ok(rows[0].n >= 1, 'the account event waits for its number while the test holds the pass');
      }
      const endpoint = await api.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['*'] });
      assert.equal(endpoint.status, 200, endpoint.text);
    } finally {
      if (pass) {
        await pass.query('commit');
        await pass.end();
      }
    }
    const events = await api.get('/v1/events?type=fintech.account.created');
    const event = events.body.data.find((e: { data: { object: { id: string } } }) => e.data.object.id === accountId);
    assert.ok(event, 'the event is numbered and listed once the pass runs');
    const deliveries = await api.get(`/v1/events/${event.id}/deliveries`);
    assert.equal(deliveries.status, 200);
    assert.deepEqual(deliveries.body.data, [], 'no delivery of an event older than the endpoint');
    // The endpoint does receive what happens after it: the next account's event is delivered.
    const next = await api.post('/v1/fintech/accounts', { type: 'business', country: 'US' });
    await receiver.until((all) => all.some((r) => r.body.includes(next.body.id)), 10_000);
  });
});
