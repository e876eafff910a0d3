import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { freshDatabase, type TestDatabase } from './helpers/database.ts';
import { assertProblem } from './helpers/problem.ts';
import { run, spawnServer } from './helpers/process.ts';
import { call, startServer, useServer } from './helpers/server.ts';

describe('health, readiness and logs', () => {
  const server = useServer();

  test('/healthz and /readyz answer 200 without a key', async () => {
    assert.equal((await call(server.url, 'GET', '/healthz')).status, 200);
    const ready = await call(server.url, 'GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ok' });
  });

  test('/readyz is 503 when the database does not answer, while /healthz stays 200', async () => {
    const broken = await startServer();
    try {
      await broken.database.close();
      assertProblem(await call(broken.url, 'GET', '/readyz'), 'service_unavailable');
      assert.equal((await call(broken.url, 'GET', '/healthz')).status, 200);
    } finally {
      await broken.close();
    }
  });

  test('one JSON log line per request, with its request_id; no key or EIN ever appears', async () => {
    const key = await server.key('acme');
    const ein = '46-8123457';
    server.logs.length = 0;
    const replies = [
      await call(server.url, 'POST', '/v1/fintech/accounts', {
        key,
        json: { type: 'business', country: 'US', kyb: { ein, legal_name: 'Acme' } },
      }),
      await call(server.url, 'POST', '/v1/fintech/accounts', {
        key,
        json: { type: 'business', country: 'US', kyb: { ein, legal_name: 'A', x: 1 } },
      }),
      await call(server.url, 'POST', '/v1/fintech/accounts', {
        key,
        raw: `{"kyb":{"ein":"${ein}","ein":"${ein}"}}`,
        headers: { 'content-type': 'application/json' },
      }),
      await call(server.url, 'GET', '/v1/fintech/accounts', { key: key.slice(0, -1) + 'x' }),
      await call(server.url, 'GET', `/v1/fintech/accounts?starting_after=${key}`, { key }),
    ];
    const lines = server.logs.map((l) => JSON.parse(l));
    const requestLines = lines.filter((l) => l.msg === 'request');
    assert.equal(requestLines.length, replies.length);
    assert.deepEqual(
      requestLines.map((l) => l.request_id),
      replies.map((r) => r.headers.get('request-id')),
    );
    assert.deepEqual(
      requestLines.map((l) => l.status),
      replies.map((r) => r.status),
    );
    const all = server.logs.join('\n');
    for (const secret of [key, key.slice(8), ein, ein.replace('-', ''), 'Bearer'])
      assert.ok(!all.includes(secret), `log shows ${secret}`);
  });
});

describe('the server process', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  before(async () => {
    db = await freshDatabase();
    // A SQLite file in a directory that does not exist yet: start-up creates it.
    env = { DATABASE_URL: db.url.replace(/plinth\.db$/, 'nested/dir/plinth.db') };
  });
  after(() => db.drop());

  test('SIGTERM lets an in-flight request finish, refuses new connections, closes the database and exits 0', async () => {
    // The server starts first, as in the quickstart: its database directory does not exist yet.
    const server = await spawnServer(env);
    const created = await run(['src/cli/main.ts', 'keys', 'create', '--org', 'acme', '--mode', 'sandbox'], env);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    const { port } = new URL(server.url);
    const body = '{"type":"business","country":"US"}';
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let response = '';
    socket.on('data', (d) => (response += d.toString()));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // Headers and half the body: the request is in flight when the signal arrives.
    socket.write(
      `POST /v1/fintech/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 200));
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await assert.rejects(fetch(`${server.url}/healthz`), 'no new connections while draining');
    socket.write(body.slice(10));
    await closed;
    assert.match(response, /^HTTP\/1\.1 200 /);
    assert.match(response, /"status":"active"/);
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    assert.ok(server.lines.some((l) => l.includes('"msg":"stopped"')));
    // The account committed before the answer: a new process reads it.
    const again = await spawnServer(env);
    try {
      const list = await call(again.url, 'GET', '/v1/fintech/accounts', { key });
      assert.equal(list.body.data.length, 1);
    } finally {
      again.child.kill('SIGINT');
      assert.deepEqual(await again.exited, { code: 0, signal: null });
    }
  });
});
