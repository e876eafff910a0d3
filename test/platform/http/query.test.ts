import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

describe('query strings (docs/api.md#the-wire): defined parameters only, once each, integers in plain digits', () => {
  const server = useServer();
  let key: string;
  let accountId: string;
  let keyId: string;
  before(async () => {
    key = await server.key('acme');
    accountId = (
      await call(server.url, 'POST', '/v1/fintech/accounts', { key, json: { type: 'business', country: 'US' } })
    ).body.id;
    keyId = (await call(server.url, 'POST', '/v1/api_keys', { key })).body.id;
  });

  test('an unknown parameter is 400 parameter_unknown on every kind of route, GET and POST alike', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/v1/fintech/accounts?expand=kyb', { type: 'business', country: 'US' }],
      ['GET', `/v1/fintech/accounts/${accountId}?expand=kyb`, undefined],
      ['POST', `/v1/api_keys/${keyId}/revoke?force=true`, {}],
      ['POST', '/v1/api_keys?mode=live', {}],
      ['GET', '/v1/fintech/accounts?limit=1&expand=kyb', undefined],
    ];
    for (const [method, path, json] of cases) {
      const param = [...new URL(path, server.url).searchParams.keys()].at(-1)!;
      assertProblem(await call(server.url, method, path, { key, json }), 'parameter_unknown', param);
    }
    const created = await call(server.url, 'GET', '/v1/fintech/accounts?limit=100', { key });
    assert.equal(created.body.data.length, 1, 'the refused POST created nothing');
  });

  test('a repeated parameter is 400 parameter_invalid, saying to send it once', async () => {
    const reply = await call(server.url, 'GET', '/v1/fintech/accounts?limit=1&limit=2', { key });
    assertProblem(reply, 'parameter_invalid', 'limit');
    assert.match(reply.body.detail, /once/);
  });

  test('integers are plain decimal digits', async () => {
    for (const limit of ['0x10', '+5', '5.0', '1e1', '%205', '-1', '', '5%20', '٥']) {
      const reply = await call(server.url, 'GET', `/v1/fintech/accounts?limit=${limit}`, { key });
      assertProblem(reply, 'parameter_invalid', 'limit');
      assert.doesNotMatch(reply.body.detail, /must be integer|must be number/);
    }
    for (const limit of ['5', '100', '007']) {
      assert.equal((await call(server.url, 'GET', `/v1/fintech/accounts?limit=${limit}`, { key })).status, 200);
    }
  });

  test('Idempotency-Key on GET and HEAD is ignored, whatever its value', async () => {
    for (const value of ['a-key', ' '.repeat(3), 'x'.repeat(300)]) {
      const reply = await call(server.url, 'GET', '/v1/fintech/accounts', {
        key,
        headers: { 'idempotency-key': value },
      });
      assert.equal(reply.status, 200, reply.text);
      const head = await fetch(`${server.url}/v1/fintech/accounts`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': value },
      });
      assert.equal(head.status, 200);
    }
  });
});
