import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertProblem } from '../../helpers/problem.ts';
import { call, startServer, useServer } from '../../helpers/server.ts';

const KEY_FIELDS = [
  'created_at',
  'hint',
  'id',
  'last_used_at',
  'livemode',
  'mode',
  'name',
  'object',
  'permissions',
  'revoked_at',
];

describe('sandbox sign-up and the key management API', () => {
  const server = useServer();

  const signup = (json?: unknown) => call(server.url, 'POST', '/v1/sandbox/signup', json === undefined ? {} : { json });

  test('sign-up → first account, with no other step', async () => {
    const reply = await signup();
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.body.org_id, /^org_[0-9A-Z]{26}$/);
    const key = reply.body.api_key;
    assert.deepEqual(Object.keys(key).sort(), [...KEY_FIELDS, 'key'].sort());
    assert.match(key.key, /^sk_test_[0-9A-Za-z]{38}$/);
    assert.equal(key.mode, 'sandbox');
    assert.equal(key.livemode, false);
    assert.equal(key.revoked_at, null);
    assert.equal(key.hint, `sk_test_…${key.key.slice(-4)}`);
    const account = await call(server.url, 'POST', '/v1/fintech/accounts', {
      key: key.key,
      json: { type: 'business', country: 'US' },
    });
    assert.equal(account.status, 200, account.text);
    assert.equal(account.body.livemode, false);
  });

  test('sign-up takes {} or a name; every sign-up is its own org', async () => {
    const a = await signup({});
    const b = await signup({ name: '  Acme Labs ' });
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.notEqual(a.body.org_id, b.body.org_id);
    await call(server.url, 'POST', '/v1/fintech/accounts', {
      key: a.body.api_key.key,
      json: { type: 'business', country: 'US' },
    });
    const list = await call(server.url, 'GET', '/v1/fintech/accounts', { key: b.body.api_key.key });
    assert.deepEqual(list.body.data, []);
  });

  test('an optional body may be empty even with Content-Type: application/json (generated clients send that)', async () => {
    const json = { 'content-type': 'application/json' };
    const owner = (await signup()).body.api_key.key;
    const minted = await call(server.url, 'POST', '/v1/api_keys', { key: owner, raw: '', headers: json });
    assert.equal(minted.status, 200, minted.text);
    const revoked = await call(server.url, 'POST', `/v1/api_keys/${minted.body.id}/revoke`, {
      key: owner,
      raw: '',
      headers: json,
    });
    assert.equal(revoked.status, 200, revoked.text);
  });

  test('bad sign-up bodies are 400s', async () => {
    assertProblem(await signup({ name: '' }), 'parameter_invalid', 'name');
    assertProblem(await signup({ name: '   ' }), 'parameter_invalid', 'name');
    assertProblem(await signup({ name: 'x'.repeat(101) }), 'parameter_invalid', 'name');
    assertProblem(await signup({ name: 'a\u0000b'.replace('\u0000', '\u0007') }), 'parameter_invalid', 'name');
    assertProblem(await signup({ mode: 'live' }), 'parameter_unknown', 'mode');
  });

  test('sign-up switched off by configuration → 403 permission_denied', async () => {
    const off = await startServer({ SANDBOX_SIGNUP: 'off' });
    try {
      assertProblem(await call(off.url, 'POST', '/v1/sandbox/signup', { json: {} }), 'permission_denied');
    } finally {
      await off.close();
    }
  });

  test("create: the caller's mode by default; a sandbox key may not mint a live key; a live key may mint either", async () => {
    const sandbox = await server.key('acme');
    const live = await server.key('acme', 'live');
    const defaulted = await call(server.url, 'POST', '/v1/api_keys', { key: sandbox });
    assert.equal(defaulted.status, 200, defaulted.text);
    assert.equal(defaulted.body.mode, 'sandbox');
    assert.deepEqual(Object.keys(defaulted.body).sort(), [...KEY_FIELDS, 'key'].sort());
    assertProblem(
      await call(server.url, 'POST', '/v1/api_keys', { key: sandbox, json: { mode: 'live' } }),
      'permission_denied',
      'mode',
    );
    const liveFromLive = await call(server.url, 'POST', '/v1/api_keys', { key: live, json: {} });
    assert.equal(liveFromLive.body.mode, 'live');
    assert.match(liveFromLive.body.key, /^sk_live_/);
    const sandboxFromLive = await call(server.url, 'POST', '/v1/api_keys', { key: live, json: { mode: 'sandbox' } });
    assert.equal(sandboxFromLive.body.mode, 'sandbox');
    assertProblem(
      await call(server.url, 'POST', '/v1/api_keys', { key: sandbox, json: { mode: 'prod' } }),
      'parameter_invalid',
      'mode',
    );
    // The new keys work at once, in their own mode.
    const account = await call(server.url, 'POST', '/v1/fintech/accounts', {
      key: liveFromLive.body.key,
      json: { type: 'business', country: 'US' },
    });
    assert.equal(account.body.livemode, true);
  });

  test("list: the org's keys of the caller's mode, newest first, never a secret", async () => {
    const first = (await signup()).body;
    const owner = first.api_key.key;
    const created = [first.api_key];
    for (let i = 0; i < 3; i++) created.push((await call(server.url, 'POST', '/v1/api_keys', { key: owner })).body);
    const list = await call(server.url, 'GET', '/v1/api_keys', { key: owner });
    assert.equal(list.status, 200);
    assert.equal(list.body.object, 'list');
    assert.equal(list.body.has_more, false);
    assert.deepEqual(
      list.body.data.map((k: { id: string }) => k.id),
      created.map((k) => k.id).reverse(),
    );
    for (const k of list.body.data) assert.deepEqual(Object.keys(k).sort(), KEY_FIELDS);
    for (const k of created) {
      assert.ok(!list.text.includes(k.key), 'no secret in a list');
      assert.ok(!list.text.includes(k.key.slice(8, 40)), 'no part of a secret in a list');
    }
    const page = await call(server.url, 'GET', `/v1/api_keys?limit=2&starting_after=${created[3].id}`, { key: owner });
    assert.deepEqual(
      page.body.data.map((k: { id: string }) => k.id),
      [created[2].id, created[1].id],
    );
    assert.equal(page.body.has_more, true);
    // Another org sees none of them, and cannot use them as cursors.
    const stranger = (await signup()).body.api_key.key;
    assertProblem(
      await call(server.url, 'GET', `/v1/api_keys?starting_after=${created[0].id}`, { key: stranger }),
      'parameter_invalid',
      'starting_after',
    );
  });

  test('revoke: 200 with revoked_at, refused at the next request, harmless twice; others cannot revoke it', async () => {
    const owner = (await signup()).body.api_key.key;
    const victim = (await call(server.url, 'POST', '/v1/api_keys', { key: owner })).body;
    const stranger = (await signup()).body.api_key.key;
    assertProblem(
      await call(server.url, 'POST', `/v1/api_keys/${victim.id}/revoke`, { key: stranger }),
      'resource_not_found',
    );
    assert.equal((await call(server.url, 'GET', '/v1/fintech/accounts', { key: victim.key })).status, 200);

    const revoked = await call(server.url, 'POST', `/v1/api_keys/${victim.id}/revoke`, { key: owner });
    assert.equal(revoked.status, 200, revoked.text);
    assert.deepEqual(Object.keys(revoked.body).sort(), KEY_FIELDS);
    assert.match(revoked.body.revoked_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);
    assertProblem(await call(server.url, 'GET', '/v1/fintech/accounts', { key: victim.key }), 'api_key_invalid');

    const again = await call(server.url, 'POST', `/v1/api_keys/${victim.id}/revoke`, { key: owner, json: {} });
    assert.equal(again.status, 200);
    assert.equal(again.body.revoked_at, revoked.body.revoked_at);
    assertProblem(
      await call(server.url, 'POST', `/v1/api_keys/${victim.id}/revoke`, { key: owner, json: { now: true } }),
      'parameter_unknown',
      'now',
    );
    assertProblem(await call(server.url, 'POST', '/v1/api_keys/key_nope/revoke', { key: owner }), 'resource_not_found');
    const listed = await call(server.url, 'GET', '/v1/api_keys', { key: owner });
    assert.equal(listed.body.data.find((k: { id: string }) => k.id === victim.id).revoked_at, revoked.body.revoked_at);
  });

  test('a key of the other mode is invisible: it can be neither listed nor revoked', async () => {
    const live = await server.key('modes-org', 'live');
    const sandbox = await server.key('modes-org', 'sandbox');
    const liveKeys = (await call(server.url, 'GET', '/v1/api_keys', { key: live })).body.data;
    assert.ok(liveKeys.every((k: { mode: string }) => k.mode === 'live'));
    assertProblem(
      await call(server.url, 'POST', `/v1/api_keys/${liveKeys[0].id}/revoke`, { key: sandbox }),
      'resource_not_found',
    );
  });

  test('no secret ever reaches the log', async () => {
    server.logs.length = 0;
    const made = (await signup()).body.api_key.key;
    const minted = (await call(server.url, 'POST', '/v1/api_keys', { key: made })).body.key;
    await call(server.url, 'GET', '/v1/api_keys', { key: minted });
    const all = server.logs.join('\n');
    assert.ok(server.logs.length >= 3);
    for (const secret of [made, minted]) assert.ok(!all.includes(secret.slice(8)), 'log shows a key');
  });
});
