import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { purgeRequestLogs } from '../../../src/modules/requests/install.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { allEntries, entryOf } from '../../helpers/request-log.ts';
import { useServer } from '../../helpers/server.ts';
import { type Client, client } from '../../helpers/webhooks.ts';

const ACCOUNT = { type: 'business', country: 'US' };
const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/;

/** The key id of the client's key, from the key list (matched on the hint's last four characters). */
async function keyIdOf(api: Client): Promise<string> {
  const keys = await api.get('/v1/api_keys?limit=100');
  return keys.body.data.find((k: { hint: string }) => api.key.endsWith(k.hint.slice(-4))).id;
}

/** What every entry of `api`'s key has in common; `duration_ms` and `created_at` are checked on their own. */
function expected(api: Client, keyId: string, fields: Record<string, unknown>) {
  return {
    object: 'request_log',
    error_code: null,
    api_key_id: keyId,
    api_key_hint: `sk_test_…${api.key.slice(-4)}`,
    idempotency_key: null,
    idempotent_replayed: false,
    source: 'api',
    query: null,
    body: null,
    body_truncated: false,
    bodies_hidden: false,
    response_body: null,
    response_truncated: false,
    error_detail: null,
    error_param: null,
    count: null,
    livemode: false,
    ...fields,
  };
}

function assertTimes(entry: { duration_ms: number; created_at: string }, startedAt: number): void {
  assert.ok(entry.duration_ms > 0 && entry.duration_ms < 60_000, `duration_ms ${entry.duration_ms}`);
  assert.match(entry.created_at, MINUTE);
  const at = Date.parse(entry.created_at.replace('Z', ':00Z'));
  assert.ok(at >= startedAt - 60_000 && at <= Date.now(), `created_at ${entry.created_at}`);
}

const strip = ({ duration_ms: _d, created_at: _c, ...rest }: any) => rest;

describe('the request log (docs/api.md#the-request-log)', () => {
  const server = useServer();

  test('a request of each kind is recorded with exactly its fields, once its batch is written', async () => {
    const api = await client(server, 'log-fields');
    const keyId = await keyIdOf(api);
    const startedAt = Date.now();
    const kyb = { ein: '12-3456780', legal_name: 'Acme Corp' };
    const created = await api.post('/v1/fintech/accounts', { ...ACCOUNT, kyb }, { 'idempotency-key': 'fields-1' });
    assert.equal(created.status, 200, created.text);
    const replay = await api.post('/v1/fintech/accounts', { ...ACCOUNT, kyb }, { 'idempotency-key': 'fields-1' });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    const read = await api.get(`/v1/fintech/accounts/${created.body.id}`);
    const head = await fetch(`${server.url}/v1/fintech/accounts`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${api.key}` },
    });
    assert.equal(head.status, 200);
    const refused = await api.post(`/v1/fintech/accounts/${created.body.id}/freeze`, { reason: 'boredom' });
    assertProblem(refused, 'parameter_invalid', 'reason');
    const endpoint = await api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'] });
    const deleted = await api.del(`/v1/webhook_endpoints/${endpoint.body.id}`);
    assert.equal(deleted.status, 200, deleted.text);

    const accounts = '/v1/fintech/accounts';
    const sentBody = JSON.stringify({ ...ACCOUNT, kyb: { ein: '[redacted]', legal_name: 'Acme Corp' } });
    const cases: [string, Record<string, unknown>][] = [
      [
        created.headers.get('request-id')!,
        {
          method: 'POST',
          route: accounts,
          path: accounts,
          status: 200,
          idempotency_key: 'fields-1',
          body: sentBody,
          response_body: created.text,
        },
      ],
      [
        read.headers.get('request-id')!,
        {
          method: 'GET',
          route: `${accounts}/{id}`,
          path: `${accounts}/${created.body.id}`,
          status: 200,
          response_body: null, // a successful read keeps no answer: it can be read again
        },
      ],
      [head.headers.get('request-id')!, { method: 'HEAD', route: accounts, path: accounts, status: 200 }],
      [
        refused.headers.get('request-id')!,
        {
          method: 'POST',
          route: `${accounts}/{id}/freeze`,
          path: `${accounts}/${created.body.id}/freeze`,
          status: 400,
          error_code: 'parameter_invalid',
          body: '{"reason":"boredom"}',
          response_body: refused.text,
          error_detail: refused.body.detail,
          error_param: 'reason',
        },
      ],
      [
        deleted.headers.get('request-id')!,
        {
          method: 'DELETE',
          route: '/v1/webhook_endpoints/{id}',
          path: `/v1/webhook_endpoints/${endpoint.body.id}`,
          status: 200,
          response_body: deleted.text,
        },
      ],
    ];
    for (const [id, fields] of cases) {
      const entry = await entryOf(api, id);
      assert.deepEqual(strip(entry), expected(api, keyId, { id, ...fields }));
      assertTimes(entry, startedAt);
    }
    // A replay answers with the first request's Request-Id; its own entry has its own id, and says it was a replay.
    const withKey = (await allEntries(api, '&method=POST')).filter((e) => e.idempotency_key === 'fields-1');
    assert.equal(withKey.length, 2, JSON.stringify(withKey));
    const replayed = withKey.find((e) => e.idempotent_replayed)!;
    assert.notEqual(replayed.id, created.headers.get('request-id'));
    assert.deepEqual(
      strip(replayed),
      expected(api, keyId, {
        id: replayed.id,
        method: 'POST',
        route: accounts,
        path: accounts,
        status: 200,
        idempotency_key: 'fields-1',
        idempotent_replayed: true,
        body: sentBody,
        response_body: replay.text,
      }),
    );
  });

  test('a replayed refusal keeps its error code', async () => {
    const api = await client(server, 'log-replayed-refusal');
    const headers = { 'idempotency-key': 'missing-1' };
    const body = { reason: 'compliance_review' };
    const first = await api.post('/v1/fintech/accounts/acct_01KAPQ9R3V2W3X4Y5Z6A7B8C9D/freeze', body, headers);
    assertProblem(first, 'resource_not_found');
    const again = await api.post('/v1/fintech/accounts/acct_01KAPQ9R3V2W3X4Y5Z6A7B8C9D/freeze', body, headers);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    await entryOf(api, first.headers.get('request-id')!);
    await server.app.requestLog.flush();
    const entries = await allEntries(api, '&status=404&method=POST');
    assert.deepEqual(
      entries.map((e) => [e.error_code, e.idempotent_replayed]),
      [
        ['resource_not_found', true],
        ['resource_not_found', false],
      ],
    );
  });

  test('another org and the other mode see nothing of it: not listed, 404 as if it never existed', async () => {
    const mine = await client(server, 'log-owner');
    const theirs = await client(server, 'log-stranger');
    const live = await client(server, 'log-owner', 'live');
    const made = await mine.post('/v1/fintech/accounts', ACCOUNT);
    const id = made.headers.get('request-id')!;
    await entryOf(mine, id);
    await live.get('/v1/fintech/accounts'); // the live key has entries of its own
    await server.app.requestLog.flush();
    const never = `${id.slice(0, -8)}ZZZZZZZZ`;
    for (const other of [theirs, live]) {
      assert.ok(!(await allEntries(other)).some((e) => e.id === id), 'listed to another owner');
      const shape = (r: { status: number; text: string; headers: Headers }, of: string) => [
        r.status,
        r.text.replaceAll(r.headers.get('request-id')!, 'req').replaceAll(of, '<id>'),
      ];
      assert.deepEqual(
        shape(await other.get(`/v1/requests/${id}`), id),
        shape(await other.get(`/v1/requests/${never}`), never),
      );
      assertProblem(await other.get(`/v1/requests?starting_after=${id}`), 'parameter_invalid', 'starting_after');
    }
    assert.ok((await allEntries(live)).every((e) => e.livemode === true));
  });

  test('retention: entries older than REQUEST_LOG_RETENTION_DAYS are purged', async () => {
    const api = await client(server, 'log-retention');
    const made = await api.get('/v1/fintech/accounts');
    const id = made.headers.get('request-id')!;
    await entryOf(api, id);
    const days = (n: number) => () => new Date(Date.now() + n * 86_400_000);
    assert.equal(await purgeRequestLogs(server.database, days(6), 7 * 86_400_000), 0, 'younger than 7 days: kept');
    assert.equal((await api.get(`/v1/requests/${id}`)).status, 200);
    assert.ok((await purgeRequestLogs(server.database, days(8), 7 * 86_400_000)) >= 1);
    assertProblem(await api.get(`/v1/requests/${id}`), 'resource_not_found');
  });
});
