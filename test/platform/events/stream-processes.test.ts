/**
 * The live event stream's limit across server processes (docs/api.md#the-live-event-stream): EVENT_STREAMS_PER_ORG
 * counts an org's open streams on every process of the database, a closed stream frees its place for any process,
 * and the streams of a process killed without closing them stop counting once their leases run out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../../src/db/database.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { createKeyForOrgName } from '../../../src/modules/keys/api-keys.operator.ts';
import { BACKEND, freshDatabase, MULTI_PROCESS_SKIP, type TestDatabase } from '../../helpers/database.ts';
import { type ServerProcess, spawnServer } from '../../helpers/process.ts';
import { operatorDeps, UNLIMITED } from '../../helpers/server.ts';
import { openSse, type SseConnection } from '../../helpers/sse.ts';

describe(`the event stream limit across two server processes (${BACKEND})`, { skip: MULTI_PROCESS_SKIP }, () => {
  let db: TestDatabase;
  let database: Database;
  let servers: ServerProcess[];
  before(async () => {
    db = await freshDatabase();
    const env = { ...UNLIMITED, DATABASE_URL: db.url, EVENT_STREAMS_PER_ORG: '2' };
    servers = [await spawnServer(env), await spawnServer(env)];
    database = openDatabase(db.url);
  });
  after(async () => {
    for (const s of servers ?? []) s.child.kill('SIGKILL');
    await Promise.all((servers ?? []).map((s) => s.exited));
    await database?.close();
    await db?.drop();
  });

  const key = async (org: string) => (await createKeyForOrgName(operatorDeps(database), org, 'sandbox'))!.key;

  test('2 open on one process: the other refuses a third with 429; a closed one frees a place there', async () => {
    const [a, b] = servers.map((s) => s.url) as [string, string];
    const acme = await key('procs-acme');
    const open = [await openSse(a, '/v1/events/stream', acme), await openSse(a, '/v1/events/stream', acme)];
    assert.deepEqual(
      open.map((c) => c.status),
      [200, 200],
    );
    const third = await openSse(b, '/v1/events/stream', acme);
    assert.equal(third.status, 429, 'the other process counts the first one’s streams');
    assert.equal(JSON.parse(await third.text()).code, 'rate_limited');
    const other = await openSse(b, '/v1/events/stream', await key('procs-other'));
    assert.equal(other.status, 200, 'another org has its own');
    open[0]!.close();
    await open[0]!.ended;
    // The place is given back as the stream closes (a write of its own): asked again until it is.
    let again: SseConnection;
    for (again = await openSse(b, '/v1/events/stream', acme); again.status === 429; await sleep(100)) {
      await again.text();
      again = await openSse(b, '/v1/events/stream', acme);
    }
    assert.equal(again.status, 200);
    for (const c of [open[1]!, other, again]) c.close();
  });

  test('the streams of a process killed without closing them stop counting when their leases run out', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const initech = await key('procs-initech');
    const held = [
      await openSse(a.url, '/v1/events/stream', initech),
      await openSse(a.url, '/v1/events/stream', initech),
    ];
    assert.deepEqual(
      held.map((c) => c.status),
      [200, 200],
    );
    a.child.kill('SIGKILL');
    await a.exited;
    const refused = await openSse(b.url, '/v1/events/stream', initech);
    assert.equal(refused.status, 429, 'the leases outlive the process for a while');
    await refused.text();
    // No time is asserted: the place comes back once the dead process's leases have run out (15 s).
    let freed: SseConnection;
    do {
      await sleep(500);
      freed = await openSse(b.url, '/v1/events/stream', initech);
      if (freed.status === 429) await freed.text();
    } while (freed.status === 429);
    assert.equal(freed.status, 200);
    freed.close();
  });
});
