import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { revokeKeyById } from '../../../src/modules/keys/api-keys.operator.ts';
import { generateKey, hashKey } from '../../../src/platform/auth/key-format.ts';
import { KEY_CACHE_MS } from '../../../src/platform/auth/verify.ts';
import { assertProblem } from '../../helpers/problem.ts';

/** The key with its last checksum character changed (replacing it with a fixed '0' keeps it valid 1 time in 62). */
const withBadChecksum = (key: string) => key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');

import { call, operatorDeps, startServer, useServer } from '../../helpers/server.ts';

const PATH = '/v1/fintech/accounts';

describe('Bearer authentication', () => {
  const server = useServer();
  let key: string;
  before(async () => {
    key = await server.key('acme');
  });

  function assertUnauthorized(
    reply: Awaited<ReturnType<typeof call>>,
    code: 'api_key_missing' | 'api_key_invalid',
  ): void {
    assertProblem(reply, code, 'Authorization');
    assert.equal(reply.headers.get('www-authenticate'), 'Bearer realm="plinth"');
  }

  test('no Authorization header → 401 api_key_missing, on every /v1 route and method', async () => {
    for (const [method, path] of [
      ['POST', PATH],
      ['GET', PATH],
      ['GET', `${PATH}/acct_x`],
    ] as const) {
      assertUnauthorized(
        await call(server.url, method, path, method === 'POST' ? { json: {} } : {}),
        'api_key_missing',
      );
    }
    assertUnauthorized(await call(server.url, 'GET', PATH, { headers: { authorization: '' } }), 'api_key_missing');
  });

  test('every other failure is api_key_invalid', async () => {
    const good = key;
    const badChecksum = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
    const unknown = generateKey('sandbox');
    for (const authorization of [
      `Basic ${good}`,
      `Token ${good}`,
      good,
      'Bearer',
      'Bearer sk_test_short',
      `Bearer ${badChecksum}`,
      `Bearer ${unknown}`,
      `Bearer ${good} extra`,
      `Bearer ${good.replace('sk_test_', 'sk_live_')}`,
    ]) {
      assertUnauthorized(await call(server.url, 'GET', PATH, { headers: { authorization } }), 'api_key_invalid');
    }
  });

  test('the scheme is case-insensitive', async () => {
    assert.equal((await call(server.url, 'GET', PATH, { headers: { authorization: `bearer ${key}` } })).status, 200);
  });

  test('an auth failure comes before body checks: no key and a hostile body is still 401', async () => {
    assertUnauthorized(
      await call(server.url, 'POST', PATH, { raw: '{"a":1,"a":2}', headers: { 'content-type': 'application/json' } }),
      'api_key_missing',
    );
    assertUnauthorized(
      await call(server.url, 'POST', PATH, { raw: 'x', headers: { 'content-type': 'text/plain' } }),
      'api_key_missing',
    );
  });

  test('a revoked key is refused on the next request, with the same body as an unknown key', async () => {
    const fresh = await server.key('acme');
    assert.equal((await call(server.url, 'GET', PATH, { key: fresh })).status, 200);
    const row = await server.database.db
      .selectFrom('api_keys')
      .select('id')
      .where('secret_hash', '=', hashKey(fresh))
      .executeTakeFirstOrThrow();
    await revokeKeyById(operatorDeps(server.database), row.id);
    // A verified key may be trusted for up to KEY_CACHE_MS after its lookup: past that, every process refuses it.
    await new Promise((resolve) => setTimeout(resolve, KEY_CACHE_MS + 50));
    const revoked = await call(server.url, 'GET', PATH, { key: fresh });
    const unknown = await call(server.url, 'GET', PATH, { key: generateKey('sandbox') });
    assertUnauthorized(revoked, 'api_key_invalid');
    const strip = (body: Record<string, unknown>) => ({ ...body, request_id: undefined });
    assert.deepEqual(strip(revoked.body), strip(unknown.body));
    // Other keys of the org are unaffected.
    assert.equal((await call(server.url, 'GET', PATH, { key })).status, 200);
  });

  test('a malformed key never reaches the database', async () => {
    // Closing the database would make any query fail with a 5xx; a malformed key must still be a clean 401.
    const closed = await startServer();
    await closed.database.close();
    try {
      assertUnauthorized(await call(closed.url, 'GET', PATH, { key: 'sk_test_garbage' }), 'api_key_invalid');
      assertUnauthorized(
        await call(closed.url, 'GET', PATH, { key: withBadChecksum(generateKey('sandbox')) }),
        'api_key_invalid',
      );
      // The control: a well-formed key does query, and the closed database answers 503.
      assertProblem(await call(closed.url, 'GET', PATH, { key: generateKey('sandbox') }), 'service_unavailable');
    } finally {
      await closed.close();
    }
  });
});
