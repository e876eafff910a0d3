/**
 * The live event stream (docs/api.md#the-live-event-stream), against a real listening server: SSE framing with the
 * bytes of GET /v1/events/{id}, resuming by Last-Event-ID and ?after=, the type filter, the retention gap, the per-org
 * limit, a revoked key's stream closing, and a bad resume point refused.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { purgeEvents } from '../../../src/platform/events/purge.ts';
import { deleteDeliveriesOf } from '../../../src/platform/webhooks/deliveries.repository.ts';
import { BACKEND } from '../../helpers/database.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';
import { openSse, type SseConnection, type SseMessage } from '../../helpers/sse.ts';
import { client } from '../../helpers/webhooks.ts';

const ACCOUNT = { type: 'business', country: 'US' };

async function take(conn: SseConnection, n: number): Promise<SseMessage[]> {
  const got: SseMessage[] = [];
  while (got.length < n) {
    const message = await conn.next();
    assert.ok(message !== null, `the stream ended after ${got.length} of ${n} messages`);
    got.push(message);
  }
  return got;
}

describe(`the live event stream (${BACKEND})`, () => {
  const server = useServer({ EVENT_STREAMS_PER_ORG: '2' });

  test('live events arrive in order as id, event and data, the data byte for byte GET /v1/events/{id}', async () => {
    const api = await client(server, 'stream-live');
    const conn = await openSse(server.url, '/v1/events/stream', api.key);
    assert.equal(conn.status, 200);
    assert.match(String(conn.headers['content-type']), /^text\/event-stream/);
    const account = await api.post('/v1/fintech/accounts', ACCOUNT);
    await api.post(`/v1/fintech/accounts/${account.body.id}/freeze`, { reason: 'other' });
    const [created, frozen] = await take(conn, 2);
    // The key's own api_key.created (1) came before the stream opened: it starts with the next event.
    assert.deepEqual(
      [created!.id, created!.event, frozen!.id, frozen!.event],
      ['2', 'fintech.account.created', '3', 'fintech.account.frozen'],
    );
    for (const message of [created!, frozen!]) {
      const id = JSON.parse(message.data).id;
      assert.equal(message.data, (await api.get(`/v1/events/${id}`)).text);
    }
    conn.close();
  });

  test('Last-Event-ID (over ?after=) and ?after= replay from the store with no gap or repeat; ?type= filters', async () => {
    const api = await client(server, 'stream-resume');
    for (let i = 0; i < 3; i++) await api.post('/v1/fintech/accounts', ACCOUNT);
    const all = await openSse(server.url, '/v1/events/stream?after=0', api.key);
    assert.deepEqual(
      (await take(all, 4)).map((m) => m.id),
      ['1', '2', '3', '4'],
    );
    all.close();
    const header = await openSse(server.url, '/v1/events/stream?after=0', api.key, { 'last-event-id': '2' });
    assert.deepEqual(
      (await take(header, 2)).map((m) => m.id),
      ['3', '4'],
    );
    await api.post('/v1/fintech/accounts', ACCOUNT);
    assert.equal((await take(header, 1))[0]!.id, '5', 'then live');
    header.close();
    const typed = await openSse(server.url, '/v1/events/stream?after=0&type=api_key.created', api.key);
    const first = await take(typed, 1);
    assert.deepEqual([first[0]!.id, first[0]!.event], ['1', 'api_key.created']);
    await api.post('/v1/api_keys', {});
    assert.deepEqual(
      (await take(typed, 1)).map((m) => [m.id, m.event]),
      [['6', 'api_key.created']],
    );
    typed.close();
  });

  test('a resume point that is not a sequence: 400 naming it', async () => {
    const api = await client(server, 'stream-bad');
    const headers = { 'last-event-id': 'abc' };
    const header = await call(server.url, 'GET', '/v1/events/stream', { key: api.key, headers });
    assertProblem(header, 'parameter_invalid', 'last-event-id');
    assertProblem(await call(server.url, 'GET', '/v1/events/stream?after=-1', { key: api.key }), 'parameter_invalid');
  });

  test('at most EVENT_STREAMS_PER_ORG per org and mode: 429 rate_limited beyond, others unaffected', async () => {
    const api = await client(server, 'stream-limit');
    const open = [await openSse(server.url, '/v1/events/stream', api.key)];
    open.push(await openSse(server.url, '/v1/events/stream', api.key));
    assert.deepEqual(
      open.map((c) => c.status),
      [200, 200],
    );
    const third = await openSse(server.url, '/v1/events/stream', api.key);
    assert.equal(third.status, 429);
    const problem = JSON.parse(await third.text());
    assert.equal(problem.code, 'rate_limited');
    assert.match(problem.detail, /EVENT_STREAMS_PER_ORG/);
    const live = await openSse(server.url, '/v1/events/stream', await server.key('stream-limit', 'live'));
    const other = await openSse(server.url, '/v1/events/stream', (await client(server, 'stream-other')).key);
    assert.deepEqual([live.status, other.status], [200, 200], 'another mode and another org have their own');
    for (const c of [...open, live, other]) c.close();
  });

  test("a revoked key's stream ends", async () => {
    const api = await client(server, 'stream-revoked');
    const doomed = await api.post('/v1/api_keys', {});
    const conn = await openSse(server.url, '/v1/events/stream', doomed.body.key);
    assert.equal(conn.status, 200);
    await api.post(`/v1/api_keys/${doomed.body.id}/revoke`);
    await conn.ended;
    assert.ok(conn.comments.includes('the key was revoked'), conn.comments.join('|'));
  });

  test('a resume point older than retention: event gap names the numbers gone, then the oldest kept', async () => {
    const api = await client(server, 'stream-gap');
    await api.post('/v1/fintech/accounts', ACCOUNT);
    const later = () => new Date(Date.now() + 2 * 86_400_000);
    assert.ok((await purgeEvents(server.database, later, 86_400_000, deleteDeliveriesOf)) >= 2);
    await api.post('/v1/fintech/accounts', ACCOUNT);
    const conn = await openSse(server.url, '/v1/events/stream', api.key, { 'last-event-id': '0' });
    const [gap, kept] = await take(conn, 2);
    assert.deepEqual([gap!.event, gap!.id, JSON.parse(gap!.data)], ['gap', '2', { from: 1, to: 2 }]);
    assert.deepEqual([kept!.id, kept!.event], ['3', 'fintech.account.created']);
    conn.close();
  });
});

describe(`the live event stream with EVENT_STREAM_MAX_SECONDS (${BACKEND})`, () => {
  const server = useServer({ EVENT_STREAM_MAX_SECONDS: '1' });

  test('the server ends a stream cleanly after that long; the client resumes where it was', async () => {
    const api = await client(server, 'stream-max');
    const conn = await openSse(server.url, '/v1/events/stream?after=0', api.key);
    assert.deepEqual(
      (await take(conn, 1)).map((m) => m.id),
      ['1'],
    );
    await conn.ended;
    assert.equal(await conn.next(), null);
    await api.post('/v1/fintech/accounts', ACCOUNT);
    const again = await openSse(server.url, '/v1/events/stream', api.key, { 'last-event-id': '1' });
    assert.deepEqual(
      (await take(again, 1)).map((m) => [m.id, m.event]),
      [['2', 'fintech.account.created']],
    );
    again.close();
  });
});
