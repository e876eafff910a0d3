/**
 * The live stream's promise (docs/api.md#the-live-event-stream), as a property: while events are written from two
 * processes (two servers on PostgreSQL; on SQLite the server and this test's own connection, as the operator CLI
 * writes), a client that disconnects at random points and resumes by Last-Event-ID, on either server, receives
 * exactly 1..n, each message's data byte for byte `GET /v1/events/{id}`. Then the same across a server restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { Database } from '../../../src/db/database.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { createKeyForOrgName } from '../../../src/modules/keys/api-keys.operator.ts';
import { BACKEND, freshDatabase, type TestDatabase } from '../../helpers/database.ts';
import { type ServerProcess, spawnServer } from '../../helpers/process.ts';
import { call, operatorDeps, UNLIMITED } from '../../helpers/server.ts';
import { openSse, type SseMessage } from '../../helpers/sse.ts';

const ACCOUNT = { type: 'business', country: 'US' };
const RUNS = Number(process.env.STREAM_PROPERTY_RUNS ?? 4);

/** The servers (two on PostgreSQL, one on SQLite) and this test's own handle on their database. */
function useWriters() {
  let db: TestDatabase;
  let database: Database;
  const servers: ServerProcess[] = [];
  const env = () => ({ ...UNLIMITED, DATABASE_URL: db.url });
  before(async () => {
    db = await freshDatabase();
    servers.push(await spawnServer(env()));
    if (BACKEND === 'postgres') servers.push(await spawnServer(env()));
    database = openDatabase(db.url);
  });
  after(async () => {
    for (const s of servers) s.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
    await database?.close();
    await db?.drop();
  });
  return {
    urls: () => servers.map((s) => s.url),
    database: () => database,
    /** SIGTERM the first server, then start another on the same database in its place. */
    async restart(whileAway: () => Promise<void>) {
      const old = servers.shift()!;
      old.child.kill('SIGTERM');
      const exit = await old.exited;
      await whileAway();
      servers.unshift(await spawnServer(env()));
      return exit;
    },
  };
}

/** Reads the stream from `cursor` until `count` messages or the stream's end; returns what it read. */
async function readFrom(url: string, key: string, cursor: number, count: number): Promise<SseMessage[]> {
  const conn = await openSse(url, '/v1/events/stream', key, { 'last-event-id': String(cursor) });
  assert.equal(conn.status, 200);
  const got: SseMessage[] = [];
  while (got.length < count) {
    const message = await conn.next();
    if (message === null) break;
    got.push(message);
  }
  conn.close();
  return got;
}

async function assertExactly(url: string, key: string, received: SseMessage[], n: number): Promise<void> {
  assert.deepEqual(
    received.map((m) => Number(m.id)),
    Array.from({ length: n }, (_, i) => i + 1),
  );
  for (const message of received) {
    const id = JSON.parse(message.data).id;
    assert.equal(message.data, (await call(url, 'GET', `/v1/events/${id}`, { key })).text, `event ${message.id}`);
  }
}

describe(`the live stream resumes with no gap or repeat, two writers (${BACKEND})`, () => {
  const writers = useWriters();
  let org = 0;

  test('writes from two processes while the client disconnects and resumes at random points', async () => {
    const scenario = fc.record({
      writes: fc.integer({ min: 3, max: 20 }),
      operatorKeys: fc.integer({ min: 0, max: 3 }),
      cuts: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }),
      servers: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ writes, operatorKeys, cuts, servers }) => {
        const urls = writers.urls();
        const deps = operatorDeps(writers.database());
        const name = `stream-prop-${++org}`;
        const key = (await createKeyForOrgName(deps, name, 'sandbox'))!.key;
        const n = 1 + writes + operatorKeys;
        const writing = Promise.all([
          ...Array.from({ length: writes }, (_, i) =>
            call(urls[i % urls.length]!, 'POST', '/v1/fintech/accounts', { key, json: ACCOUNT }).then((r) =>
              assert.equal(r.status, 200, r.text),
            ),
          ),
          (async () => {
            for (let i = 0; i < operatorKeys; i++) await createKeyForOrgName(deps, name, 'sandbox');
          })(),
        ]);
        const received: SseMessage[] = [];
        for (let turn = 0; received.length < n; turn++) {
          const want = Math.min(cuts[turn % cuts.length]!, n - received.length);
          const url = urls[servers[turn % servers.length]! % urls.length]!;
          received.push(...(await readFrom(url, key, Number(received.at(-1)?.id ?? 0), want)));
        }
        await writing;
        await assertExactly(urls[0]!, key, received, n);
      }),
      { numRuns: RUNS },
    );
  });

  test('across a server restart (SIGTERM ends the stream cleanly; what was numbered meanwhile is replayed)', async () => {
    const deps = operatorDeps(writers.database());
    const key = (await createKeyForOrgName(deps, 'stream-restart', 'sandbox'))!.key;
    await call(writers.urls()[0]!, 'POST', '/v1/fintech/accounts', { key, json: ACCOUNT });
    const conn = await openSse(writers.urls()[0]!, '/v1/events/stream', key, { 'last-event-id': '0' });
    const received = [(await conn.next())!, (await conn.next())!];
    const exit = await writers.restart(async () => {
      await conn.ended;
      await createKeyForOrgName(deps, 'stream-restart', 'sandbox'); // numbered while the client is away
    });
    assert.deepEqual(exit, { code: 0, signal: null }, 'the server shut down cleanly with a stream open');
    await call(writers.urls()[0]!, 'POST', '/v1/fintech/accounts', { key, json: ACCOUNT });
    received.push(...(await readFrom(writers.urls()[0]!, key, Number(received.at(-1)!.id), 2)));
    await assertExactly(writers.urls()[0]!, key, received, 4);
  });
});
