import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { createKeyForOrgName } from '../../../src/modules/keys/api-keys.operator.ts';
import { ALL_MIGRATIONS } from '../../../src/modules.ts';
import { freshDatabase } from '../../helpers/database.ts';
import { spawnServer } from '../../helpers/process.ts';
import { allEntries, entryOf } from '../../helpers/request-log.ts';
import { call, loopbackOnly, operatorDeps, startServer, UNLIMITED, useServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

const ACCOUNT = { type: 'business', country: 'US' };

async function metric(url: string, line: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? 0 : Number(found.slice(line.length + 1));
}

describe('recording the request log', () => {
  const server = useServer();

  test('a body over 8 KiB is cut at 8 KiB of UTF-8, on a character boundary, and marked', async () => {
    const api = await client(server, 'log-big-body');
    const note = `a${'€'.repeat(5000)}`; // 3 bytes each in UTF-8
    const reply = await api.post('/v1/fintech/accounts', { ...ACCOUNT, note });
    assert.equal(reply.status, 400);
    const entry = await entryOf(api, reply.headers.get('request-id')!);
    const head = '{"type":"business","country":"US","note":"a';
    assert.equal(entry.body, head + '€'.repeat(Math.floor((8192 - head.length) / 3)));
    assert.equal(entry.body_truncated, true);
    const small = await api.post('/v1/fintech/accounts', { ...ACCOUNT, note: '€'.repeat(2000) });
    assert.equal((await entryOf(api, small.headers.get('request-id')!)).body_truncated, false, '6 KiB is kept whole');
  });

  test('the dashboard records its actions through app.requestLog, as source dashboard', async () => {
    const fresh = await freshDatabase();
    // DASHBOARD=off: the stand-in route below takes the path of the console's own freeze form.
    const settings = { DATABASE_URL: fresh.url, LOG_LEVEL: 'silent', SECRETS_KEY: process.env.SECRETS_KEY };
    const config = loadConfig({ ...settings, DASHBOARD: 'off' });
    const database = openDatabase(config.DATABASE_URL);
    await database.migrate(ALL_MIGRATIONS);
    const app = await buildApp({ config, database, resolve: loopbackOnly });
    const made = (await createKeyForOrgName(operatorDeps(database), 'log-dashboard', 'sandbox'))!;
    const principal = {
      orgId: made.row.org_id,
      mode: 'sandbox' as const,
      keyId: made.row.id,
      permissions: null,
      keyHint: made.row.hint,
    };
    // A stand-in for a dashboard form handler: it called the service, which refused, and redirects back.
    app.post('/dashboard/accounts/:id/freeze', async (request, reply) => {
      await reply.code(303).header('location', '/dashboard/accounts').send();
      const body = { reason: 'compliance_review', note: 'EIN 98-7654321' };
      app.requestLog.recordDashboardAction(request, reply, {
        principal,
        status: 409,
        errorCode: 'account_frozen',
        body,
      });
    });
    try {
      const action = await app.inject({ method: 'POST', url: '/dashboard/accounts/acct_X/freeze', payload: {} });
      assert.equal(action.statusCode, 303);
      await app.requestLog.flush();
      const authorization = `Bearer ${made.key}`;
      const list = await app.inject({ method: 'GET', url: '/v1/requests', headers: { authorization } });
      const [entry, ...others] = list.json().data;
      assert.equal(others.length, 0, 'the dashboard route itself is not an API request');
      const { duration_ms: _d, created_at: _c, ...fields } = entry;
      assert.deepEqual(fields, {
        id: action.headers['request-id'],
        object: 'request_log',
        method: 'POST',
        route: '/dashboard/accounts/{id}/freeze',
        path: '/dashboard/accounts/acct_X/freeze',
        query: null,
        status: 409,
        error_code: 'account_frozen',
        api_key_id: made.row.id,
        api_key_hint: `sk_test_…${made.key.slice(-4)}`,
        idempotency_key: null,
        idempotent_replayed: false,
        source: 'dashboard',
        body: '{"reason":"compliance_review","note":"EIN [redacted EIN]"}',
        body_truncated: false,
        bodies_hidden: false,
        response_body: null,
        response_truncated: false,
        error_detail: null,
        error_param: null,
        count: null,
        livemode: false,
      });
    } finally {
      await app.close();
      await database.close();
      await fresh.drop();
    }
  });
});

describe('the request log buffer', () => {
  test('bounded: past REQUEST_LOG_BUFFER entries, or as many KiB of bodies, entries are dropped and counted', async () => {
    const small = await startServer({ REQUEST_LOG_BUFFER: '3', REQUEST_LOG_FLUSH_MS: '60000' });
    try {
      const api = await client(small, 'log-bounded');
      const sent = [];
      for (let i = 0; i < 5; i++) sent.push((await api.get('/v1/fintech/accounts')).headers.get('request-id'));
      assert.equal(await metric(small.url, 'plinth_request_log_buffered'), 3);
      assert.equal(await metric(small.url, 'plinth_request_log_dropped_total{reason="buffer_full"}'), 2);
      await small.app.requestLog.flush();
      const kept = await allEntries(api, '&status=200&method=GET');
      assert.deepEqual(
        kept.map((e) => e.id),
        sent.slice(0, 3).reverse(),
      );
      // 3 KiB of bodies: one body of 2 KiB fits beside the list request just recorded, a second does not.
      await small.app.requestLog.flush();
      const note = 'x'.repeat(2000);
      const first = await api.post('/v1/fintech/accounts', { ...ACCOUNT, note });
      const second = await api.post('/v1/fintech/accounts', { ...ACCOUNT, note });
      assert.equal(await metric(small.url, 'plinth_request_log_dropped_total{reason="buffer_full"}'), 3);
      await small.app.requestLog.flush();
      const posts = (await allEntries(api, '&method=POST')).map((e) => e.id);
      assert.deepEqual(posts, [first.headers.get('request-id')]);
      assert.notEqual(posts[0], second.headers.get('request-id'));
      assert.ok((await metric(small.url, 'plinth_request_log_written_total')) >= 5);
      // Answers count against the KiB as bodies do: an update answered with 2 KiB (the account's metadata) fits, a
      // second one beside it does not. (A successful read keeps no answer, so a list no longer would do.)
      const big = await api.post('/v1/fintech/accounts', ACCOUNT);
      assert.equal(big.status, 200, big.text);
      const path = `/v1/fintech/accounts/${big.body.id}`;
      for (const k of ['a', 'b', 'c', 'd']) {
        await small.app.requestLog.flush(); // one key at a time: each update's entry fits alone
        assert.equal((await api.post(path, { metadata: { [k]: k.repeat(450) } })).status, 200);
      }
      await small.app.requestLog.flush();
      const updates = [await api.post(path, { metadata: { e: '1' } }), await api.post(path, { metadata: { e: '2' } })];
      assert.ok(
        updates.every((u) => u.text.length > 1800 && u.text.length < 3000),
        String(updates[0]!.text.length),
      );
      assert.equal(await metric(small.url, 'plinth_request_log_dropped_total{reason="buffer_full"}'), 4);
      await small.app.requestLog.flush();
      const writes = (await allEntries(api, '&method=POST')).map((e) => e.id);
      assert.ok(
        writes.includes(updates[0]!.headers.get('request-id')) &&
          !writes.includes(updates[1]!.headers.get('request-id')),
      );
    } finally {
      await small.close();
    }
  });

  test('REQUEST_LOG=off records nothing, and the API still answers', async () => {
    const off = await startServer({ REQUEST_LOG: 'off' });
    try {
      const api = await client(off, 'log-off');
      await api.post('/v1/fintech/accounts', ACCOUNT);
      await off.app.requestLog.flush();
      assert.deepEqual(await allEntries(api), []);
      assert.equal(await metric(off.url, 'plinth_request_log_written_total'), 0);
    } finally {
      await off.close();
    }
  });

  test('a graceful shutdown writes what was waiting, however long its batch had left', async () => {
    const fresh = await freshDatabase();
    try {
      const env = { ...UNLIMITED, DATABASE_URL: fresh.url, REQUEST_LOG_FLUSH_MS: '60000' };
      const running = await spawnServer(env);
      const signup = await call(running.url, 'POST', '/v1/sandbox/signup', { json: {} });
      const key = signup.body.api_key.key as string;
      const sent = [];
      for (let i = 0; i < 3; i++) {
        const reply = await call(running.url, 'POST', '/v1/fintech/accounts', { key, json: ACCOUNT });
        sent.push(reply.headers.get('request-id')!);
      }
      running.child.kill('SIGTERM');
      assert.deepEqual(await running.exited, { code: 0, signal: null });
      const database = openDatabase(fresh.url);
      try {
        const rows = await database.db.selectFrom('request_logs').select(['id', 'source']).orderBy('id').execute();
        assert.deepEqual(
          rows.map((r) => ({ ...r })),
          sent.map((id) => ({ id, source: 'api' })),
        );
      } finally {
        await database.close();
      }
    } finally {
      await fresh.drop();
    }
  });
});
