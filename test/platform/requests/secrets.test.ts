import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checksum } from '../../../src/platform/keys/key-format.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { entryOf } from '../../helpers/request-log.ts';
import { useServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

const withChecksum = (body: string) => body + checksum(body);

describe('the request log keeps no secret (CONTRACT §16)', () => {
  const server = useServer();

  test('EINs, keys, secrets and anything shaped like one are redacted before a row is written', async () => {
    const api = await client(server, 'log-secrets');
    const liveKey = withChecksum(`sk_live_${'Q'.repeat(32)}`);
    const signing = `whsec_${'c2VjcmV0'.repeat(4)}`;
    const deep = {
      a: { b: { c: { d: { e: { f: { note: `call me with ${liveKey}`, secret: 'hunter2', key: 'k-9' } } } } } },
    };
    const sent = {
      type: 'business',
      country: 'US',
      kyb: { ein: '98-7654321', legal_name: 'Acme Corp' },
      tags: ['plain', `tax id 98-7654322 here`, { api_key: 'anything' }, signing],
      deep,
    };
    const refused = await api.post('/v1/fintech/accounts', sent, { 'idempotency-key': liveKey });
    assertProblem(refused, 'parameter_unknown');
    const newKey = await api.post('/v1/api_keys', { name: 'made here' });
    assert.equal(newKey.status, 200, newKey.text);
    const pasted = await api.get(`/v1/fintech/accounts/${liveKey}`);
    assertProblem(pasted, 'resource_not_found');

    const redactedBody = JSON.stringify({
      type: 'business',
      country: 'US',
      kyb: { ein: '[redacted]', legal_name: 'Acme Corp' },
      tags: ['plain', 'tax id [redacted EIN] here', { api_key: '[redacted]' }, 'whsec_[redacted]'],
      deep: {
        a: {
          b: {
            c: {
              d: { e: { f: { note: 'call me with sk_live_[redacted]', secret: '[redacted]', key: '[redacted]' } } },
            },
          },
        },
      },
    });
    const first = await entryOf(api, refused.headers.get('request-id')!);
    assert.equal(first.idempotency_key, 'sk_live_[redacted]');
    assert.equal(first.body, redactedBody);
    const created = await entryOf(api, newKey.headers.get('request-id')!);
    assert.equal(created.body, '{"name":"made here"}', 'only the request is kept, never the answer with its key');
    const path = await entryOf(api, pasted.headers.get('request-id')!);
    assert.equal(path.path, '/v1/fintech/accounts/sk_live_[redacted]');
    assert.equal(path.route, '/v1/fintech/accounts/{id}');

    // Whatever the API shows, the rows themselves must hold none of it.
    const rows = JSON.stringify(await server.database.db.selectFrom('request_logs').selectAll().execute());
    for (const secret of [
      liveKey.slice(8),
      api.key.slice(8, -4),
      newKey.body.key.slice(8, -4),
      'c2VjcmV0',
      '7654321',
      '7654322',
      'hunter2',
      'k-9',
      'anything',
    ])
      assert.ok(!rows.includes(secret), `a row holds ${secret}`);
  });
});
