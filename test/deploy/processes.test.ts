import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { KEY_CACHE_MS } from '../../src/platform/auth/verify.ts';
import { assertRateLimited, burst } from '../helpers/burst.ts';
import { BACKEND, freshDatabase, MULTI_PROCESS_SKIP, type TestDatabase } from '../helpers/database.ts';
import { assertProblem } from '../helpers/problem.ts';
import { run, type ServerProcess, spawnServer } from '../helpers/process.ts';
import { REDIS_SERVER, type RedisProcess, startRedis } from '../helpers/redis.ts';
import { call, UNLIMITED } from '../helpers/server.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';

const PATH = '/v1/fintech/accounts';
const US = { type: 'business', country: 'US' };

async function stopAll(servers: ServerProcess[]): Promise<void> {
  for (const s of servers) {
    s.child.kill('SIGTERM');
    assert.deepEqual(await s.exited, { code: 0, signal: null });
  }
}

describe('two server processes on one PostgreSQL and one Redis', {
  skip: MULTI_PROCESS_SKIP || (REDIS_SERVER ? false : 'no redis-server on this machine'),
}, () => {
  let db: TestDatabase;
  let redis: RedisProcess;
  let servers: ServerProcess[] = [];
  let key: string;
  let keyId: string;
  before(async () => {
    db = await freshDatabase();
    redis = await startRedis();
    // A loaded test machine can take more than the default 100 ms to answer; the shared limit is what is tested here.
    const env = {
      ...UNLIMITED,
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      REDIS_TIMEOUT_MS: '2000',
      RATE_LIMIT_SANDBOX: '5',
    };
    const created = JSON.parse(
      (await run(['src/cli/main.ts', 'keys', 'create', '--org', 'acme', '--mode', 'sandbox', '--json'], env)).stdout,
    );
    key = created.key;
    keyId = created.id;
    servers = [await spawnServer(env), await spawnServer(env)];
  });
  after(async () => {
    await stopAll(servers);
    await redis.stop();
    await db.drop();
  });
  const on = (i: number) => servers[i % 2]!.url;
  const pause = () => new Promise((r) => setTimeout(r, 1100)); // one second refills a 5/s bucket

  test('created on one, read on the other', async () => {
    const created = await call(on(0), 'POST', PATH, { key, json: US });
    assert.equal(created.status, 200);
    const read = await call(on(1), 'GET', `${PATH}/${created.body.id}`, { key });
    assert.deepEqual(read.body, created.body);
  });

  test('an idempotency key used on one replays on the other; concurrent use across both yields one account', async () => {
    await pause();
    const idem = randomUUID();
    const first = await call(on(0), 'POST', PATH, { key, json: US, headers: { 'idempotency-key': idem } });
    const replay = await call(on(1), 'POST', PATH, { key, json: US, headers: { 'idempotency-key': idem } });
    assert.equal(replay.text, first.text);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    await pause();
    const shared = randomUUID();
    const before = (await call(on(1), 'GET', `${PATH}?limit=100`, { key })).body.data.length;
    await pause();
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        call(on(i), 'POST', PATH, {
          key,
          json: { type: 'business', country: 'GB' },
          headers: { 'idempotency-key': shared },
        }),
      ),
    );
    const originals = replies.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') !== 'true');
    assert.equal(originals.length, 1);
    for (const r of replies) if (r.status !== 200) assertProblem(r, 'idempotency_request_in_progress');
    await pause();
    assert.equal((await call(on(0), 'GET', `${PATH}?limit=100`, { key })).body.data.length, before + 1);
  });

  test('the rate limit is shared: one key, two processes, one limit', async () => {
    await pause();
    const started = Date.now();
    const result = await burst(30, (i) => call(on(i), 'GET', PATH, { key }));
    const seconds = (Date.now() - started) / 1000;
    assert.ok(result.ok >= 5, `${result.ok}`);
    // Two separate limits would let through at least 10; one shared limit, 5 + 5 per second of the burst.
    assert.ok(result.ok <= 5 + 5 * seconds, `shared: ${result.ok} allowed across both in ${seconds}s`);
  });

  test('revocation on one is refused on the other within a second (its verified-key cache)', async () => {
    await pause();
    const minted = (await call(on(0), 'POST', '/v1/api_keys', { key })).body;
    assert.equal((await call(on(1), 'GET', PATH, { key: minted.key })).status, 200);
    assert.equal((await call(on(0), 'POST', `/v1/api_keys/${minted.id}/revoke`, { key })).status, 200);
    assertProblem(await call(on(0), 'GET', PATH, { key: minted.key }), 'api_key_invalid'); // the revoker: at once
    await new Promise((resolve) => setTimeout(resolve, KEY_CACHE_MS + 50));
    assertProblem(await call(on(1), 'GET', PATH, { key: minted.key }), 'api_key_invalid');
    assert.match(keyId, /^key_/);
  });

  test('Redis stopped mid-test: requests still succeed, limited per process, and the outage is logged', async () => {
    await pause();
    await redis.stop();
    const result = await burst(30, (i) => call(on(i), 'GET', PATH, { key }));
    assert.ok(result.ok >= 5, `requests still pass: ${result.ok}`);
    assert.ok(result.limited > 0, 'each process still enforces the limit on its own');
    for (const r of result.replies.filter((x) => x.status === 429)) assertRateLimited(r);
    for (const r of result.replies.filter((x) => x.status === 200))
      assert.match(r.headers.get('ratelimit')!, /^"default";r=\d+;t=\d+$/);
    for (const s of servers)
      assert.ok(
        s.lines.some((l) => l.includes('Redis unreachable')),
        'the fallback is logged',
      );
  });
});

describe('PostgreSQL connection loss', {
  skip: BACKEND === 'postgres' ? false : 'PostgreSQL only; runs in the PostgreSQL pass',
}, () => {
  test('gives 503 service_unavailable while the database is unreachable, and service resumes by itself', async () => {
    const db = await freshDatabase();
    const target = new URL(db.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    target.host = `127.0.0.1:${proxy.port}`;
    const env = { ...UNLIMITED, DATABASE_URL: target.toString() };
    const key = (
      await run(['src/cli/main.ts', 'keys', 'create', '--org', 'acme', '--mode', 'sandbox'], env)
    ).stdout.trim();
    const server = await spawnServer(env);
    try {
      assert.equal((await call(server.url, 'POST', PATH, { key, json: US })).status, 200);
      await proxy.cut();
      const down = await call(server.url, 'POST', PATH, { key, json: US });
      assertProblem(down, 'service_unavailable');
      assert.equal(down.headers.get('retry-after'), '1');
      assertProblem(await call(server.url, 'GET', '/readyz'), 'service_unavailable');
      assert.equal((await call(server.url, 'GET', '/healthz')).status, 200);
      await proxy.restore();
      let ready = 0;
      for (let i = 0; i < 50 && ready !== 200; i++) {
        ready = (await call(server.url, 'GET', '/readyz')).status;
        if (ready !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(ready, 200, 'ready again without a restart');
      const list = await call(server.url, 'GET', PATH, { key });
      assert.equal(list.status, 200);
      assert.equal(list.body.data.length, 1, 'the refused write left nothing behind');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await proxy.close();
      await db.drop();
    }
  });
});

describe('WEB_CONCURRENCY workers', { skip: MULTI_PROCESS_SKIP }, () => {
  test('npm start runs N workers on one port, migrates once, and drains all on SIGTERM', async () => {
    const db = await freshDatabase();
    const env = { ...UNLIMITED, DATABASE_URL: db.url, WEB_CONCURRENCY: '2' };
    const server = await spawnServer(env);
    try {
      const key = (
        await run(['src/cli/main.ts', 'keys', 'create', '--org', 'acme', '--mode', 'sandbox'], env)
      ).stdout.trim();
      const pids = new Set<number>();
      for (let i = 0; i < 20; i++) {
        const reply = await call(server.url, 'POST', PATH, { key, json: US, headers: { connection: 'close' } });
        assert.equal(reply.status, 200);
      }
      for (const line of server.lines) {
        const parsed = JSON.parse(line);
        if (parsed.msg === 'request') pids.add(parsed.pid);
      }
      assert.equal(pids.size, 2, 'both workers served');
    } finally {
      server.child.kill('SIGTERM');
      assert.deepEqual(await server.exited, { code: 0, signal: null });
      await db.drop();
    }
  });
});

describe('SQLite mode is one server process', { skip: BACKEND === 'sqlite' ? false : 'SQLite only' }, () => {
  test('a second server on the same file is refused with one clear line (WEB_CONCURRENCY > 1: test/config.test.ts)', async () => {
    const db = await freshDatabase();
    const first = await spawnServer({ DATABASE_URL: db.url });
    try {
      const second = await run(['src/server.ts'], { DATABASE_URL: db.url, PORT: '0' });
      assert.equal(second.code, 1);
      assert.match(second.stderr, /another Plinth server already serves .*SQLite mode runs one server process/);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
    // After a clean stop (and likewise after kill -9, whose lock is stale), a new server starts.
    const again = await spawnServer({ DATABASE_URL: db.url });
    again.child.kill('SIGKILL');
    await again.exited;
    const afterCrash = await spawnServer({ DATABASE_URL: db.url });
    afterCrash.child.kill('SIGTERM');
    assert.deepEqual(await afterCrash.exited, { code: 0, signal: null });
    await db.drop();
  });
});
