import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checksum } from '../../../src/platform/auth/key-format.ts';
import { get, signIn } from '../../helpers/dashboard.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { allEntries, entryOf } from '../../helpers/request-log.ts';
import { useServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

const withChecksum = (body: string) => body + checksum(body);

describe('the request log keeps no secret (docs/api.md#the-request-log)', () => {
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

  test('a key or an EIN as a property name is redacted as a value is (issue 30, finding 3)', async () => {
    const api = await client(server, 'log-names');
    const live = await server.key('log-names', 'live');
    const ein = '98-7654323';
    const sent = [
      // A metadata key holds 40 characters: the prefix and 32 of the key's 38 are the secret all the same.
      { type: 'individual', country: 'US', metadata: { [live.slice(0, 40)]: 'x', [ein]: 'y', plain: 'z' } },
      { type: 'individual', country: 'US', [live]: 1 },
      { type: 'business', country: 'US', kyb: { legal_name: 'Acme', ein: '12-3456789', [live]: { [ein]: 1 } } },
    ];
    const ids: string[] = [];
    for (const body of sent) ids.push((await api.post('/v1/fintech/accounts', body)).headers.get('request-id')!);
    const bodies = [];
    for (const id of ids) bodies.push((await entryOf(api, id)).body);
    assert.deepEqual(bodies, [
      '{"type":"individual","country":"US","metadata":{"sk_live_[redacted]":"x","[redacted EIN]":"y","plain":"z"}}',
      '{"type":"individual","country":"US","sk_live_[redacted]":1}',
      '{"type":"business","country":"US","kyb":{"legal_name":"Acme","ein":"[redacted]",' +
        '"sk_live_[redacted]":{"[redacted EIN]":1}}}',
    ]);
    const cookie = await signIn(server.url, api.key);
    const shown = [JSON.stringify(await allEntries(api))];
    for (const id of ids) {
      const page = await get(server.url, `/dashboard/requests/${id}`, cookie);
      assert.equal(page.status, 200);
      assert.match(page.html, /sk_live_\[redacted\]/);
      shown.push(page.html);
    }
    for (const text of shown)
      for (const secret of [live.slice(8, 40), '7654323'])
        assert.ok(!text.includes(secret), `${secret} is shown: ${text.slice(0, 300)}`);
  });

  test('a key split by a line break, a space or a quote is redacted whole (issue 30, finding 4)', async () => {
    const api = await client(server, 'log-split');
    const live = await server.key('log-split', 'live');
    const note = [`${live.slice(0, 11)}\n${live.slice(11)}`, `${live.slice(0, 8)} ${live.slice(8)}`];
    const tags = [`${live.slice(0, 20)}\r\n  ${live.slice(20)}`, `${live.slice(0, 30)}", "${live.slice(30)}`];
    const reply = await api.post(
      '/v1/fintech/accounts',
      { type: 'individual', country: 'US', note, tags },
      {
        'idempotency-key': `${live.slice(0, 12)} ${live.slice(12)}`,
      },
    );
    assertProblem(reply, 'parameter_unknown');
    const entry = await entryOf(api, reply.headers.get('request-id')!);
    assert.equal(entry.idempotency_key, 'sk_live_[redacted]');
    const redacted = ['sk_live_[redacted]', 'sk_live_[redacted]'];
    assert.equal(entry.body, JSON.stringify({ type: 'individual', country: 'US', note: redacted, tags: redacted }));
  });
});
