import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { generateKey } from '../../../src/platform/keys/key-format.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

const EIN = '27-1234567';
const WHSEC = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/+9hY=';

describe('key-shaped and EIN-shaped values never reach a log line or an error detail (CONTRACT §2)', () => {
  const server = useServer();
  let key: string;
  before(async () => {
    key = await server.key('acme');
  });

  /** Neither the reply nor any log line written so far shows one of `secrets`. */
  function assertNowhere(reply: { text: string }, secrets: string[]): void {
    for (const secret of secrets) {
      assert.ok(!reply.text.includes(secret), `the reply shows ${secret}: ${reply.text}`);
      const leaks = server.logs.filter((l) => l.includes(secret));
      assert.deepEqual(leaks, [], `a log line shows ${secret}`);
    }
  }

  test('a key in a path segment (revoking the secret instead of its id)', async () => {
    const reply = await call(server.url, 'POST', `/v1/api_keys/${key}/revoke`, { key });
    assertProblem(reply, 'resource_not_found');
    assert.equal(reply.body.detail, 'No such API key with this id.', 'a value not shaped like an id is not echoed');
    assertNowhere(reply, [key, key.slice(8)]);
  });

  test('an EIN, a live key and a webhook secret in paths', async () => {
    const live = generateKey('live');
    for (const path of [`/v1/fintech/accounts/${EIN}`, `/v1/fintech/accounts/${live}`, `/v1/${WHSEC}`]) {
      const reply = await call(server.url, 'GET', path, { key });
      assert.equal(reply.status, 404);
      assertNowhere(reply, [EIN, live, live.slice(8), WHSEC.slice(6, 20)]);
    }
  });

  test('in a query string, a header and a body value', async () => {
    const other = generateKey('sandbox');
    const replies = [
      await call(server.url, 'GET', `/v1/fintech/accounts?starting_after=${other}`, { key }),
      await call(server.url, 'GET', `/v1/fintech/accounts?limit=${EIN}`, { key }),
      await call(server.url, 'GET', '/v1/fintech/accounts', { headers: { authorization: `Basic ${other}` } }),
      await call(server.url, 'POST', '/v1/fintech/accounts', {
        key,
        headers: { 'idempotency-key': other },
        json: { type: 'business', country: other },
      }),
      await call(server.url, 'POST', '/v1/fintech/accounts', { key, json: { type: EIN, country: 'US' } }),
    ];
    for (const reply of replies) {
      assert.equal(reply.status >= 400 && reply.status < 500, true, reply.text);
      assertNowhere(reply, [other, other.slice(8), EIN]);
    }
  });
});
