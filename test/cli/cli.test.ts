import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KEY_CACHE_MS } from '../../src/platform/keys/verify.ts';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { run, type ServerProcess, spawnServer } from '../helpers/process.ts';
import { call } from '../helpers/server.ts';

describe('operator CLI', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let server: ServerProcess;
  const cli = (...args: string[]) => run(['src/cli/main.ts', ...args], env);

  before(async () => {
    db = await freshDatabase();
    env = { DATABASE_URL: db.url };
    assert.equal((await cli('migrate')).code, 0);
    server = await spawnServer(env);
  });
  after(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await db.drop();
  });

  test('migrate twice is harmless', async () => {
    const again = await cli('migrate');
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, '');
  });

  test('keys create prints only the key, which works at once against a running server', async () => {
    const result = await cli('keys', 'create', '--org', 'acme', '--mode', 'sandbox');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^sk_test_[0-9A-Za-z]{38}\n$/);
    const reply = await call(server.url, 'POST', '/v1/fintech/accounts', {
      key: result.stdout.trim(),
      json: { type: 'business', country: 'US' },
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.livemode, false);
  });

  test('--json prints id, key, org_id and mode; a second key joins the same org', async () => {
    const first = JSON.parse((await cli('keys', 'create', '--org', 'globex', '--mode', 'live', '--json')).stdout);
    const second = JSON.parse((await cli('keys', 'create', '--org', 'globex', '--mode', 'sandbox', '--json')).stdout);
    assert.deepEqual(Object.keys(first).sort(), ['id', 'key', 'mode', 'org_id']);
    assert.match(first.id, /^key_/);
    assert.match(first.key, /^sk_live_/);
    assert.equal(first.mode, 'live');
    assert.equal(second.org_id, first.org_id);
    const reply = await call(server.url, 'POST', '/v1/fintech/accounts', {
      key: first.key,
      json: { type: 'business', country: 'US' },
    });
    assert.equal(reply.body.livemode, true);
  });

  test('keys list shows hints, never secrets; keys revoke takes effect on the running server', async () => {
    const created = JSON.parse((await cli('keys', 'create', '--org', 'initech', '--mode', 'sandbox', '--json')).stdout);
    const listed = await cli('keys', 'list', '--org', 'initech');
    assert.equal(listed.code, 0);
    assert.ok(!listed.stdout.includes(created.key));
    assert.ok(!listed.stdout.includes(created.key.slice(8, -4)));
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(rows.length, 1);
    assert.equal(rows[0].hint, `sk_test_…${created.key.slice(-4)}`);
    assert.equal(rows[0].revoked_at, null);

    assert.equal((await call(server.url, 'GET', '/v1/fintech/accounts', { key: created.key })).status, 200);
    const revoked = await cli('keys', 'revoke', created.id);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(JSON.parse(revoked.stdout).revoked_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);
    // The server trusts a verified key for at most KEY_CACHE_MS: past that, it refuses the key revoked elsewhere.
    await new Promise((resolve) => setTimeout(resolve, KEY_CACHE_MS + 50));
    assert.equal((await call(server.url, 'GET', '/v1/fintech/accounts', { key: created.key })).status, 401);
    assert.equal((await cli('keys', 'revoke', created.id)).code, 0, 'revoking twice is harmless');
  });

  test('usage errors and unknown ids fail with a message and a non-zero exit', async () => {
    const usage = await cli('keys', 'create', '--org', 'acme', '--mode', 'prod');
    assert.equal(usage.code, 64);
    assert.match(usage.stderr, /^plinth: keys create needs --mode sandbox or --mode live, not prod\nusage:/);
    assert.equal(usage.stdout, '');
    const missing = await cli('keys', 'revoke', 'key_nope');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no key with id/);
    assert.equal((await cli('keys', 'list', '--org', 'nobody')).code, 1);
  });
});
