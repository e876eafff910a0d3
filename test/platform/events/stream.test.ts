/**
 * The live event stream (docs/api.md#the-live-event-stream), against a real listening server: SSE framing with the
 * bytes of GET /v1/events/{id}, resuming by Last-Event-ID and ?after=, the type filter, the retention gap, the per-org
 * limit, a revoked key's stream closing, and a bad resume point refused.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { purgeEvents } from '../../../src/modules/events/purge.ts';
import { deleteDeliveriesOf } from '../../../src/modules/webhooks/api/deliveries.repository.ts';
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

  test('a resume point beyond the last numbered event: 400 naming it (it would never send anything)', async () => {
    const api = await client(server, 'stream-beyond');
    await api.post('/v1/fintech/accounts', ACCOUNT);
    const headers = { 'last-event-id': '999999999999999' };
    const header = await call(server.url, 'GET', '/v1/events/stream', { key: api.key, headers });
    assertProblem(header, 'parameter_invalid', 'last-event-id');
    assert.match(header.body.detail, /Last-Event-ID is 999999999999999, beyond the last event \(2\)/);
    assertProblem(
      await call(server.url, 'GET', '/v1/events/stream?after=3', { key: api.key }),
      'parameter_invalid',
      'after',
    );
    const last = await openSse(server.url, '/v1/events/stream?after=2', api.key);
    assert.equal(last.status, 200, 'the last number itself resumes');
    last.close();
  });

  test('leases of streams whose process is gone (expired) do not count against the limit', async () => {
    const api = await client(server, 'stream-expired');
    const keyId = (await api.post('/v1/api_keys', {})).body.id;
    const { org_id: orgId } = await server.database.db
      .selectFrom('api_keys')
      .select('org_id')
      .where('id', '=', keyId)
      .executeTakeFirstOrThrow();
    const stale = { org_id: orgId, mode: 'sandbox' as const, process_id: 'gone', expires_at: Date.now() - 1 };
    await server.database.write((trx) =>
      trx
        .insertInto('event_stream_leases')
        .values([1, 2, 3].map((n) => ({ ...stale, id: `stale-${n}` })))
        .execute(),
    );
    const open = [await openSse(server.url, '/v1/events/stream', api.key)];
    open.push(await openSse(server.url, '/v1/events/stream', api.key));
    assert.deepEqual(
      open.map((c) => c.status),
      [200, 200],
    );
    for (const c of open) c.close();
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

  // The bound is generous (docs/api.md says 1 s) but shorter than the stream's first keep-alive comment (15 s after
  // it opened): before, the connection stayed open until that comment, written after the stream's end, failed.
  test("a revoked key's stream is cut even while its client reads nothing", { timeout: 120_000 }, async () => {
    const api = await client(server, 'stream-revoked-stalled');
    const doomed = await api.post('/v1/api_keys', {});
    const serverSide = new Promise<Socket>((resolve) => {
      const seen = (socket: Socket) => {
        if (socket.remotePort !== reader.localPort) return;
        server.app.server.off('connection', seen);
        resolve(socket);
      };
      server.app.server.on('connection', seen);
    });
    const { port } = new URL(server.url);
    const reader = connect({ host: '127.0.0.1', port: Number(port) });
    await once(reader, 'connect');
    reader.write(
      `GET /v1/events/stream?after=0 HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${doomed.body.key}\r\n\r\n`,
    );
    reader.pause(); // never reads: the kernel's buffers fill, then the server's writes wait
    const socket = await serverSide;
    // Events of about 25 kB each until the server's writes wait for the client: its buffers and the kernel's are full.
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'x'.repeat(500)]));
    while (!socket.writableNeedDrain)
      await Promise.all(Array.from({ length: 20 }, () => api.post('/v1/fintech/accounts', { ...ACCOUNT, metadata })));
    await api.post(`/v1/api_keys/${doomed.body.id}/revoke`);
    const closed = socket.destroyed ? Promise.resolve() : once(socket, 'close').then(() => undefined);
    const waited = await Promise.race([closed.then(() => 'closed'), sleep(5000).then(() => 'still open')]);
    reader.destroy();
    assert.equal(waited, 'closed', 'the server kept the revoked stream open while its client read nothing');
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
