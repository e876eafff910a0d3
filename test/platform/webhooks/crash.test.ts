import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { freshDatabase, MULTI_PROCESS_SKIP, type TestDatabase } from '../../helpers/database.ts';
import { run, type ServerProcess, spawnServer } from '../../helpers/process.ts';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { call, UNLIMITED } from '../../helpers/server.ts';
import { verified } from '../../helpers/webhooks.ts';

const ACCOUNT = { type: 'business', country: 'US' };
const ENV = {
  ...UNLIMITED,
  WEBHOOK_TIMEOUT_SECONDS: '1',
  WEBHOOK_RETRY_SCHEDULE: '300ms,500ms,1s,1s,2s,2s,3s,5s',
};

async function newKey(env: Record<string, string>, org: string): Promise<string> {
  const created = await run(['src/cli/main.ts', 'keys', 'create', '--org', org, '--mode', 'sandbox'], env);
  assert.equal(created.code, 0, created.stderr);
  return created.stdout.trim();
}

/** Every event id of one type, walking the cursors. */
async function eventIds(url: string, key: string, type?: string): Promise<{ id: string; sequence: number }[]> {
  const all: { id: string; sequence: number }[] = [];
  let after = type === undefined ? '' : `&type=${type}`;
  for (;;) {
    const page = await call(url, 'GET', `/v1/events?limit=100${after}`, { key });
    all.push(...page.body.data);
    if (!page.body.has_more) return all;
    after = `${type === undefined ? '' : `&type=${type}`}&starting_after=${page.body.data.at(-1).id}`;
  }
}

/** True when the newest page of events is a run of consecutive sequences: no later number visible before an earlier. */
async function contiguous(url: string, key: string): Promise<boolean> {
  const seqs = (await call(url, 'GET', '/v1/events?limit=100', { key })).body.data.map(
    (e: { sequence: number }) => e.sequence,
  );
  return seqs.every((s: number, i: number) => s === seqs[0] - i);
}

describe('a committed event is delivered even when the server is killed', () => {
  let db: TestDatabase;
  let receiver: Receiver;
  let server: ServerProcess | undefined;
  before(async () => {
    db = await freshDatabase();
    receiver = await startReceiver();
  });
  after(async () => {
    server?.child.kill('SIGKILL');
    await receiver.close();
    await db.drop();
  });

  test('kill -9 while deliveries are due and in flight; after restart lost is 0', async () => {
    const env = { ...ENV, DATABASE_URL: db.url };
    const key = await newKey(env, 'crash-org');
    server = await spawnServer(env);
    // Slow answers keep attempts in flight when the kill comes.
    receiver.answer = () => ({ status: 200, delayMs: 400 });
    const endpoint = await call(server.url, 'POST', '/v1/webhook_endpoints', {
      key,
      json: { url: receiver.url, enabled_events: ['fintech.account.created'] },
    });
    assert.equal(endpoint.status, 200, endpoint.text);
    const creates = Array.from({ length: 80 }, () =>
      call(server!.url, 'POST', '/v1/fintech/accounts', { key, json: ACCOUNT }).catch(() => null),
    );
    await receiver.until((all) => all.length >= 3);
    server.child.kill('SIGKILL');
    await server.exited;
    const acknowledged = (await Promise.all(creates)).filter((r) => r?.status === 200).length;

    server = await spawnServer(env);
    const events = await eventIds(server.url, key, 'fintech.account.created');
    assert.ok(events.length >= acknowledged, 'every acknowledged create has its event');
    receiver.answer = () => ({ status: 200 });
    const delivered = () => new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));
    await receiver.until(() => events.every((e) => delivered().has(e.id)), 30_000).catch(() => undefined);
    const lost = events.filter((e) => !delivered().has(e.id));
    assert.equal(lost.length, 0, `lost ${lost.length} of ${events.length} committed events`);
    for (const r of receiver.received) verified(r, [endpoint.body.secret]);
    // The attempts that were in flight at the kill are made again once their lease ends, and then settle.
    const pendingPath = `/v1/webhook_endpoints/${endpoint.body.id}/deliveries?status=pending&limit=1`;
    await eventually(async () => {
      const pending = await call(server!.url, 'GET', pendingPath, { key });
      return pending.body.data.length === 0 ? true : undefined;
    }, 30_000);
    process.stdout.write(
      `# crash: ${acknowledged} creates acknowledged before kill -9, ${events.length} events committed, ` +
        `${delivered().size} delivered, ${receiver.received.length - delivered().size} duplicate deliveries, lost 0\n`,
    );
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    server = undefined;
  });
});

describe('graceful shutdown with an attempt in flight', () => {
  let db: TestDatabase;
  let receiver: Receiver;
  before(async () => {
    db = await freshDatabase();
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await db.drop();
  });

  test('SIGTERM: no new claims, the attempt in flight finishes and is recorded, exit 0', async () => {
    const env = { ...ENV, DATABASE_URL: db.url, WEBHOOK_TIMEOUT_SECONDS: '5' };
    const key = await newKey(env, 'drain-org');
    let server = await spawnServer(env);
    receiver.answer = () => ({ status: 200, delayMs: 1000 });
    const endpoint = await call(server.url, 'POST', '/v1/webhook_endpoints', {
      key,
      json: { url: receiver.url, enabled_events: ['fintech.account.created'] },
    });
    await call(server.url, 'POST', '/v1/fintech/accounts', { key, json: ACCOUNT });
    await receiver.until((all) => all.length === 1);
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    server = await spawnServer(env);
    const log = await call(server.url, 'GET', `/v1/webhook_endpoints/${endpoint.body.id}/deliveries`, { key });
    assert.equal(log.body.data[0].status, 'succeeded', 'recorded before the process exited');
    assert.equal(log.body.data[0].attempts.length, 1);
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exited, { code: 0, signal: null });
  });
});

describe('two server processes share the delivery work and one sequence', { skip: MULTI_PROCESS_SKIP }, () => {
  let db: TestDatabase;
  let receiver: Receiver;
  let servers: ServerProcess[] = [];
  before(async () => {
    db = await freshDatabase();
    receiver = await startReceiver();
  });
  after(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await receiver.close();
    await db.drop();
  });

  test('concurrent creates on both: sequences 1…n with no gap or duplicate, every event delivered', async () => {
    const env = { ...ENV, DATABASE_URL: db.url };
    const key = await newKey(env, 'two-org');
    servers = [await spawnServer(env), await spawnServer(env)];
    const on = (i: number) => servers[i % 2]!.url;
    const endpoint = await call(on(0), 'POST', '/v1/webhook_endpoints', {
      key,
      json: { url: receiver.url, enabled_events: ['*'] },
    });
    assert.equal(endpoint.status, 200, endpoint.text);
    let writing = true;
    let holes = 0;
    const reader = (async () => {
      for (let i = 0; writing; i++) if (!(await contiguous(on(i), key))) holes++;
    })();
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(on(i), 'POST', '/v1/fintech/accounts', { key, json: ACCOUNT })),
    );
    writing = false;
    await reader;
    assert.ok(replies.every((r) => r.status === 200));
    assert.equal(holes, 0, 'a reader saw a sequence number before a smaller one had committed');
    const events = await eventIds(on(1), key, 'fintech.account.created');
    const sequences = (await eventIds(on(0), key)).map((e) => e.sequence).sort((a, b) => a - b);
    assert.equal(events.length, 100);
    assert.deepEqual(
      sequences,
      Array.from({ length: 101 }, (_, i) => i + 1),
      'the CLI key, then 100 accounts',
    );
    const ids = () => new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));
    await receiver.until(() => events.every((e) => ids().has(e.id)), 20_000);
    for (const r of receiver.received) verified(r, [endpoint.body.secret]);
    for (const s of servers) {
      s.child.kill('SIGTERM');
      assert.deepEqual(await s.exited, { code: 0, signal: null });
    }
    servers = [];
  });
});
