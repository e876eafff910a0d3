import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { generateKey } from '../../src/platform/auth/key-format.ts';
import { KEY_CACHE_MS } from '../../src/platform/auth/verify.ts';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { ROOT, run, type ServerProcess, spawnServer } from '../helpers/process.ts';
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
    assert.deepEqual(Object.keys(first).sort(), ['id', 'key', 'mode', 'name', 'org_id', 'permissions']);
    assert.equal(first.name, null, 'no --name');
    assert.equal(first.permissions, null, 'a full key');
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

  test('keys create --name labels the key as POST /v1/api_keys does; a name the API would refuse is refused', async () => {
    const made = await cli('keys', 'create', '--org', 'hooli', '--mode', 'sandbox', '--name', ' CI deploys ', '--json');
    assert.equal(made.code, 0, made.stderr);
    const created = JSON.parse(made.stdout);
    assert.equal(created.name, 'CI deploys');
    const listed = await cli('keys', 'list', '--org', 'hooli');
    assert.equal(JSON.parse(listed.stdout.trim().split('\n')[0]!).name, 'CI deploys');
    const bad = await cli('keys', 'create', '--org', 'hooli', '--mode', 'sandbox', '--name', 'a\u202Eb');
    assert.equal(bad.code, 64, bad.stderr); // EX_USAGE, as every usage error
    assert.match(bad.stderr, /the name must be 1–100 characters/);
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
    assert.match(
      usage.stderr,
      /^plinth: option '--mode <mode>' argument 'prod' is invalid. Allowed choices are sandbox, live.\nusage:/,
    );
    assert.equal(usage.stdout, '');
    const missing = await cli('keys', 'revoke', 'key_nope');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no key with id/);
    assert.equal((await cli('keys', 'list', '--org', 'nobody')).code, 1);
  });

  test('keys revoke given the key itself revokes it: one line, its hint, never the key (issue 34)', async () => {
    const created = JSON.parse((await cli('keys', 'create', '--org', 'hooli', '--mode', 'live', '--json')).stdout);
    const revoked = await cli('keys', 'revoke', created.key);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.stderr, '');
    assert.equal(revoked.stdout.split('\n').length, 2, `one line: ${revoked.stdout}`);
    const shown = JSON.parse(revoked.stdout);
    assert.equal(shown.id, created.id);
    assert.equal(shown.hint, `sk_live_…${created.key.slice(-4)}`);
    assert.match(shown.revoked_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);
    assert.ok(!revoked.stdout.includes(created.key.slice(8, -4)), 'the key is not printed back');
    await new Promise((resolve) => setTimeout(resolve, KEY_CACHE_MS + 50));
    assert.equal((await call(server.url, 'GET', '/v1/fintech/accounts', { key: created.key })).status, 401);

    const stranger = generateKey('live');
    const unknown = await cli('keys', 'revoke', stranger);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, `plinth: sk_live_…${stranger.slice(-4)} is no key of this database\n`);
  });

  test('keys list piped into a reader that stops reading: no EPIPE stack trace, exit 0 (issue 23, 10)', async () => {
    for (let i = 0; i < 3; i++) await cli('keys', 'create', '--org', 'pipes', '--mode', 'sandbox');
    for (const reader of ['head -n 1', 'true']) {
      const script = `node src/cli/main.ts keys list --org pipes | ${reader}; exit \${PIPESTATUS[0]}`;
      const child = spawn('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, ...env, PATH: pathWithNode() } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise((resolve) => child.on('close', resolve));
      assert.equal(stderr, '', `${reader}: ${stderr}`);
      assert.equal(code, 0, reader);
      assert.equal(stdout.split('\n').filter(Boolean).length, reader === 'true' ? 0 : 1);
    }
  });

  test('--org takes an org id or a sign-up org’s display name, and says which it used (issue 23, 10)', async () => {
    const signup = await call(server.url, 'POST', '/v1/sandbox/signup', { json: { name: 'Wayne Enterprises' } });
    assert.equal(signup.status, 200, signup.text);
    const listed = await cli('keys', 'list', '--org', 'Wayne Enterprises');
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(JSON.parse(listed.stdout).org_id, signup.body.org_id);
    const live = await cli('keys', 'create', '--org', signup.body.org_id, '--mode', 'live', '--json');
    assert.equal(live.code, 0, live.stderr);
    assert.equal(JSON.parse(live.stdout).org_id, signup.body.org_id, 'an org id names that org');

    const handle = JSON.parse((await cli('keys', 'create', '--org', 'umbrella', '--mode', 'sandbox', '--json')).stdout);
    const byId = await cli('keys', 'create', '--org', handle.org_id, '--mode', 'sandbox', '--json');
    assert.equal(JSON.parse(byId.stdout).org_id, handle.org_id, 'an operator org by its id too');
    const unknown = await cli('keys', 'create', '--org', 'org_01KAQX7ZJ0Q9W3H6T8V2N4M5PB', '--mode', 'sandbox');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no org with id org_01KAQX7ZJ0Q9W3H6T8V2N4M5PB/);

    // A new name that is also a sign-up's display name: a new org, and a line naming the sign-up's org and its id.
    const twin = await cli('keys', 'create', '--org', 'Wayne Enterprises', '--mode', 'sandbox', '--json');
    assert.equal(twin.code, 0, twin.stderr);
    assert.notEqual(JSON.parse(twin.stdout).org_id, signup.body.org_id);
    assert.ok(twin.stderr.includes(signup.body.org_id), twin.stderr);
    assert.match(twin.stderr, /--org org_/);
    const missing = await cli('keys', 'list', '--org', 'Nobody Inc');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /org id \(org_…\)/, missing.stderr);
  });
});

/** The project's Node first on PATH, so that `node` in a shell line is the one the tests run on. */
function pathWithNode(): string {
  return `${process.execPath.slice(0, process.execPath.lastIndexOf('/'))}:${process.env.PATH}`;
}
