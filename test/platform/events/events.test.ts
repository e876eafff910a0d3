import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { purgeEvents } from '../../../src/modules/events/purge.ts';
import { deleteDeliveriesOf } from '../../../src/modules/webhooks/api/deliveries.repository.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { useServer } from '../../helpers/server.ts';
import { type Client, client } from '../../helpers/webhooks.ts';

const ACCOUNT = { type: 'business', country: 'US' };

/** Every event of the client's org and mode, oldest first, walking the cursors. */
async function allEvents(api: Client): Promise<{ id: string; sequence: number; type: string }[]> {
  const all = [];
  let after = '';
  for (;;) {
    const page = await api.get(`/v1/events?limit=100${after}`);
    assert.equal(page.status, 200, page.text);
    all.push(...page.body.data);
    if (!page.body.has_more) return all.reverse();
    after = `&starting_after=${page.body.data.at(-1).id}`;
  }
}

function assertGapFree(events: { sequence: number }[]): void {
  assert.deepEqual(
    events.map((e) => e.sequence),
    events.map((_, i) => i + 1),
  );
}

describe('events (the outbox)', () => {
  const server = useServer();

  test('an account, a key and a revocation each leave one event, with the request that caused it', async () => {
    const api = await client(server, 'events-org');
    const account = await api.post('/v1/fintech/accounts', ACCOUNT, { 'idempotency-key': 'k-1' });
    const newKey = await api.post('/v1/api_keys', {});
    await api.post(`/v1/api_keys/${newKey.body.id}/revoke`);
    await api.post(`/v1/api_keys/${newKey.body.id}/revoke`); // harmless twice, and no second event
    const events = await allEvents(api);
    assert.deepEqual(
      events.map((e) => e.type),
      ['api_key.created', 'fintech.account.created', 'api_key.created', 'api_key.revoked'],
    );
    assertGapFree(events);
    const created = (await api.get(`/v1/events/${events[1]!.id}`)).body;
    assert.equal(created.object, 'event');
    assert.deepEqual(created.data.object, account.body);
    assert.deepEqual(created.request, { id: account.headers.get('request-id'), idempotency_key: 'k-1' });
    assert.equal(created.livemode, false);
    assert.match(created.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);
    const first = (await api.get(`/v1/events/${events[0]!.id}`)).body;
    assert.equal(first.request, null, 'the operator CLI has no request');
    const revoked = (await api.get(`/v1/events/${events[3]!.id}`)).body;
    assert.equal(revoked.data.object.id, newKey.body.id);
    assert.notEqual(revoked.data.object.revoked_at, null);
    assert.equal(revoked.data.object.key, undefined, 'a key event never carries the secret');

    const replay = await api.post('/v1/fintech/accounts', ACCOUNT, { 'idempotency-key': 'k-1' });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal((await allEvents(api)).length, 4, 'a replay emits nothing');
  });

  test('type filter, cursors both ways, and other owners see nothing', async () => {
    const api = await client(server, 'filter-org');
    for (let i = 0; i < 5; i++) await api.post('/v1/fintech/accounts', ACCOUNT);
    const accounts = await api.get('/v1/events?type=fintech.account.created&limit=2');
    assert.equal(accounts.body.data.length, 2);
    assert.equal(accounts.body.has_more, true);
    assert.ok(accounts.body.data.every((e: { type: string }) => e.type === 'fintech.account.created'));
    assert.ok(accounts.body.data[0].sequence > accounts.body.data[1].sequence, 'newest first');
    const older = await api.get(
      `/v1/events?type=fintech.account.created&limit=10&starting_after=${accounts.body.data[1].id}`,
    );
    assert.equal(older.body.data.length, 3);
    const newer = await api.get(`/v1/events?limit=10&ending_before=${older.body.data[0].id}`);
    assert.deepEqual(
      newer.body.data.map((e: { id: string }) => e.id),
      accounts.body.data.map((e: { id: string }) => e.id),
    );
    assertProblem(await api.get('/v1/events?type=nope'), 'parameter_invalid', 'type');

    const other = await client(server, 'other-org');
    const live = await client(server, 'filter-org', 'live');
    for (const stranger of [other, live]) {
      assertProblem(await stranger.get(`/v1/events/${accounts.body.data[0].id}`), 'resource_not_found');
      assertProblem(await stranger.get(`/v1/events?starting_after=${accounts.body.data[0].id}`), 'parameter_invalid');
    }
    assertProblem(await api.get('/v1/events/evt_nope'), 'resource_not_found');
  });

  test('under concurrent writes each org and mode counts 1, 2, 3… with no gap, and readers never see a hole', async () => {
    const orgs = await Promise.all(['seq-a', 'seq-b', 'seq-c'].map((o) => client(server, o)));
    let writing = true;
    const holes: string[] = [];
    const reader = (async () => {
      while (writing) {
        for (const api of orgs) {
          const page = (await api.get('/v1/events?limit=100')).body.data as { sequence: number }[];
          const seqs = page.map((e) => e.sequence);
          const expected = seqs.map((_, i) => seqs[0]! - i);
          if (JSON.stringify(seqs) !== JSON.stringify(expected)) holes.push(JSON.stringify(seqs));
        }
      }
    })();
    await Promise.all(
      Array.from({ length: 90 }, (_, i) =>
        i % 7 === 0 ? orgs[i % 3]!.post('/v1/api_keys', {}) : orgs[i % 3]!.post('/v1/fintech/accounts', ACCOUNT),
      ),
    );
    writing = false;
    await reader;
    assert.deepEqual(holes, [], 'a reader saw a sequence before a smaller one had committed');
    for (const api of orgs) {
      const events = await allEvents(api);
      assert.equal(events.length, 31, 'the first key and 30 writes');
      assertGapFree(events);
    }
  });

  test('events are append-only: the database refuses to change one', async () => {
    const api = await client(server, 'append-org');
    const event = (await api.get('/v1/events?limit=1')).body.data[0];
    await assert.rejects(
      server.database.write((trx) => trx.updateTable('events').set({ type: 'x' }).where('id', '=', event.id).execute()),
      /append-only/,
    );
    assert.equal((await api.get(`/v1/events/${event.id}`)).body.type, 'api_key.created');
  });

  test('retention: events older than EVENT_RETENTION_DAYS are purged, with their deliveries', async () => {
    const api = await client(server, 'purge-org');
    const event = (await api.get('/v1/events?limit=1')).body.data[0];
    const days = (n: number) => () => new Date(Date.now() + n * 86_400_000);
    assert.equal(
      await purgeEvents(server.database, days(29), 30 * 86_400_000, deleteDeliveriesOf),
      0,
      'younger than 30 days: kept',
    );
    assert.equal((await api.get(`/v1/events/${event.id}`)).status, 200);
    const purged = await purgeEvents(server.database, days(31), 30 * 86_400_000, deleteDeliveriesOf);
    assert.ok(purged >= 1);
    assertProblem(await api.get(`/v1/events/${event.id}`), 'resource_not_found');
  });
});
