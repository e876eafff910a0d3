/**
 * Restricted keys (docs/api.md#restricted-keys): made with `permissions`, shaped `rk_…` with the same body and
 * checksum as every key, listed with their permissions; a key never mints a key wider than itself; a refusal names
 * what the route needs and what the key has; revocation works as for every key.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseKey } from '../../../src/platform/auth/key-format.ts';
import { get, signIn } from '../../helpers/dashboard.ts';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { run } from '../../helpers/process.ts';
import { call, useServer } from '../../helpers/server.ts';

const NONE = {
  accounts: 'none',
  transfers: 'none',
  transactions: 'none',
  payments: 'none',
  sandbox: 'none',
  events: 'none',
  webhook_endpoints: 'none',
  api_keys: 'none',
  requests: 'none',
};

describe(`restricted keys (${BACKEND})`, () => {
  const server = useServer();
  const create = (key: string, json: unknown) => call(server.url, 'POST', '/v1/api_keys', { key, json });

  test('a read-only key reads balances and cannot move money; its object lists every group', async () => {
    const full = await server.key('restricted-read');
    const m = money(server.url, full);
    const [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 5000);
    const made = await create(full, { name: 'Reporting', permissions: { accounts: 'read', transactions: 'read' } });
    assert.equal(made.status, 200, made.text);
    const key: string = made.body.key;
    assert.match(key, /^rk_test_[0-9A-Za-z]{38}$/);
    assert.equal(parseKey(key), 'sandbox', 'the same body and checksum as every key');
    assert.deepEqual(made.body.permissions, { ...NONE, accounts: 'read', transactions: 'read' });
    assert.match(made.body.hint, /^rk_test_…/);
    const read = await call(server.url, 'GET', `/v1/fintech/accounts/${a}/balances`, { key });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.current_balance.amount, 5000);
    const move = await call(server.url, 'POST', '/v1/fintech/transfers', {
      key,
      json: { from_account_id: a, to_account_id: b, amount: 1, currency: 'USD' },
    });
    assertProblem(move, 'permission_denied');
    assert.equal(move.body.detail, 'This key has transfers: none; POST /v1/fintech/transfers needs transfers: write.');
    assert.equal(await m.balance(a), 5000, 'nothing moved');
    // A full key's object says so.
    const listed = (await call(server.url, 'GET', '/v1/api_keys?limit=100', { key: full })).body.data;
    assert.equal(listed.find((k: { id: string }) => k.id === made.body.id).permissions.accounts, 'read');
    assert.ok(listed.some((k: { permissions: unknown }) => k.permissions === null));
  });

  test('an unknown group or level is a 400 naming it; a key never mints a wider key', async () => {
    const full = await server.key('restricted-wider');
    const unknown = await create(full, { permissions: { ledgers: 'read' } });
    assertProblem(unknown, 'parameter_invalid', 'permissions.ledgers');
    assert.match(unknown.body.detail, /the groups are accounts, transfers/);
    assertProblem(
      await create(full, { permissions: { accounts: 'admin' } }),
      'parameter_invalid',
      'permissions.accounts',
    );
    const keysWriter = (await create(full, { permissions: { api_keys: 'write', accounts: 'read' } })).body.key;
    const narrower = await create(keysWriter, { permissions: { accounts: 'read' } });
    assert.equal(narrower.status, 200, narrower.text);
    const wider = await create(keysWriter, { permissions: { accounts: 'write' } });
    assertProblem(wider, 'permission_denied', 'permissions.accounts');
    assert.match(wider.body.detail, /This key has accounts: read; it cannot create a key with accounts: write/);
    const fullFromRestricted = await create(keysWriter, {});
    assertProblem(fullFromRestricted, 'permission_denied', 'permissions');
    // Without api_keys: write, no key at all; and a refused route's body is never validated for it.
    const reader = (await create(full, { permissions: { accounts: 'read' } })).body.key;
    assertProblem(await create(reader, { permissions: 'not an object' }), 'permission_denied');
  });

  test('a restricted key revokes only keys within its own permissions, never a full or a wider key', async () => {
    // Before, any key with api_keys: write revoked any key of its org: the full key's revocation answered 200.
    const full = await server.key('restricted-revoke-scope');
    const spare = await server.key('restricted-revoke-scope');
    const keysWriter = (await create(full, { permissions: { api_keys: 'write', accounts: 'read' } })).body;
    const wider = (await create(full, { permissions: { api_keys: 'write', accounts: 'write' } })).body;
    const narrower = (await create(full, { permissions: { accounts: 'read' } })).body;
    const revoke = (key: string, id: string) => call(server.url, 'POST', `/v1/api_keys/${id}/revoke`, { key });
    const keyIdOf = async (key: string) =>
      (await call(server.url, 'GET', '/v1/api_keys?limit=100', { key: full })).body.data.find(
        (k: { hint: string }) => k.hint === `sk_test_…${key.slice(-4)}`,
      ).id as string;
    const fullId = await keyIdOf(spare);
    // The dashboard signed in with it offers to revoke only the keys it may revoke.
    const cookie = await signIn(server.url, keysWriter.key);
    const keysPage = (await get(server.url, '/dashboard/api-keys', cookie)).html;
    const offered = [...keysPage.matchAll(/href="\/dashboard\/api-keys\/(key_\w+)\/revoke"/g)].map((m) => m[1]);
    assert.ok(offered.includes(narrower.id) && offered.includes(keysWriter.id), keysPage.slice(0, 300));
    assert.ok(!offered.includes(fullId) && !offered.includes(wider.id));

    const ofFull = await revoke(keysWriter.key, fullId);
    assertProblem(ofFull, 'permission_denied');
    assert.equal(
      ofFull.body.detail,
      `This key has accounts: read; ${fullId} is a full key. A restricted key revokes only keys within its own ` +
        'permissions: revoke this one with a full key, or a key that holds at least what it holds.',
    );
    const ofWider = await revoke(keysWriter.key, wider.id);
    assertProblem(ofWider, 'permission_denied');
    assert.match(
      ofWider.body.detail,
      new RegExp(`^This key has accounts: read; ${wider.id} is a key with accounts: write\\.`),
    );
    // Nothing was revoked: both keys still work.
    assert.equal((await call(server.url, 'GET', '/v1/fintech/accounts', { key: spare })).status, 200);
    assert.equal((await call(server.url, 'GET', '/v1/fintech/accounts', { key: wider.key })).status, 200);

    const ofNarrower = await revoke(keysWriter.key, narrower.id);
    assert.equal(ofNarrower.status, 200, ofNarrower.text);
    assert.notEqual(ofNarrower.body.revoked_at, null);
    const ofItself = await revoke(keysWriter.key, keysWriter.id);
    assert.equal(ofItself.status, 200, ofItself.text);
    // A full key revokes any key.
    assert.equal((await revoke(full, wider.id)).status, 200);
  });

  test('a revoked restricted key stops within a second; the sign-up still gives a full key', async () => {
    const full = await server.key('restricted-revoke');
    const made = (await create(full, { permissions: { events: 'read' } })).body;
    assert.equal((await call(server.url, 'GET', '/v1/events', { key: made.key })).status, 200);
    const revoked = await call(server.url, 'POST', `/v1/api_keys/${made.id}/revoke`, { key: full });
    assert.equal(revoked.status, 200, revoked.text);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal((await call(server.url, 'GET', '/v1/events', { key: made.key })).status, 401);
    const signup = await call(server.url, 'POST', '/v1/sandbox/signup', { json: {} });
    assert.match(signup.body.api_key.key, /^sk_test_/);
    assert.equal(signup.body.api_key.permissions, null);
  });

  test('the operator CLI makes a restricted key and lists its permissions', async () => {
    const env = { DATABASE_URL: server.databaseUrl };
    const made = await run(
      [
        'src/cli/main.ts',
        'keys',
        'create',
        '--org',
        'cli-restricted',
        '--mode',
        'sandbox',
        '--json',
        '--permissions',
        'accounts=read,transactions=read',
      ],
      env,
    );
    assert.equal(made.code, 0, made.stderr);
    const line = JSON.parse(made.stdout);
    assert.match(line.key, /^rk_test_/);
    assert.deepEqual(line.permissions, { ...NONE, accounts: 'read', transactions: 'read' });
    const listed = await run(['src/cli/main.ts', 'keys', 'list', '--org', 'cli-restricted'], env);
    assert.equal(JSON.parse(listed.stdout.trim()).permissions.transactions, 'read');
    const bad = await run(
      ['src/cli/main.ts', 'keys', 'create', '--org', 'x', '--mode', 'sandbox', '--permissions', 'ledger=read'],
      env,
    );
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /no group "ledger"/);
  });
});
