import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checksum } from '../../../src/platform/auth/key-format.ts';
import { get, hiddenFields, post, signIn } from '../../helpers/dashboard.ts';
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

  test('a key split over a metadata value and the next key is refused, and redacted whole in the log (issue 39, item 9)', async () => {
    // Before, `n=sk_live_ABC⏎<35 characters>=x` in the dashboard's metadata field made an account whose metadata
    // key held 35 of the key's 38 characters, shown by the API, the dashboard and the request log.
    const api = await client(server, 'log-split-metadata');
    const live = await server.key('log-split-metadata', 'live');
    const [head, rest] = [live.slice(0, 11), live.slice(11)];
    assert.equal(rest.length, 35);
    const sent = { type: 'business', country: 'US', metadata: { n: head, [rest]: 'x' } };
    const refused = await api.post('/v1/fintech/accounts', sent);
    assertProblem(refused, 'parameter_invalid', 'metadata.n');
    assert.match(refused.body.detail, /^metadata\.n must not hold a key or a signing secret, nor the start of one/);
    assert.match(refused.body.detail, /\(sk_live_…, sk_test_…, rk_live_…, rk_test_… or whsec_…\): metadata is shown/);
    const whole = await api.post('/v1/fintech/accounts', { ...sent, metadata: { [live.slice(0, 40)]: 'x' } });
    assertProblem(whole, 'parameter_invalid', 'metadata');
    assert.ok(!whole.text.includes(live.slice(8, 40)), 'the refusal does not echo the key');
    const entry = await entryOf(api, refused.headers.get('request-id')!);
    assert.equal(
      entry.body,
      '{"type":"business","country":"US","metadata":{"n":"sk_live_[redacted]","[redacted]":"x"}}',
    );

    // The dashboard's field, as a person pastes a key that wrapped.
    const cookie = await signIn(server.url, api.key);
    const page = await get(server.url, '/dashboard/accounts', cookie);
    const fields = {
      ...hiddenFields(page.html.slice(page.html.indexOf('id="create"')), '/dashboard/accounts'),
      type: 'business',
      country: 'US',
      metadata: `n=${head}\n${rest}=x`,
    };
    const form = await post(server.url, '/dashboard/accounts', fields, { cookie });
    assert.equal(form.status, 400);
    assert.match(form.html, /must not hold a key or a signing secret, nor the start of one/);
    await server.app.requestLog.flush();
    assert.equal((await api.get('/v1/fintech/accounts')).body.data.length, 0, 'no account was made');
    const rows = JSON.stringify(await server.database.db.selectFrom('request_logs').selectAll().execute());
    assert.ok(!rows.includes(rest), 'no entry holds the rest of the key');
    assert.ok(!rows.includes(live.slice(8, 40)));
  });
});
