import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { revokeKeyById } from '../../../src/modules/keys/api-keys.operator.ts';
import { memoryRateLimiter } from '../../../src/platform/http/rate-limit.ts';
import { burst } from '../../helpers/burst.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, operatorDeps, useServer } from '../../helpers/server.ts';

const KEYS = '/v1/api_keys';

describe('an org-wide rate budget per mode: minting keys does not multiply throughput (docs/api.md#rate-limits)', () => {
  // A limiter whose clock stands still: no bucket refills during the test, so the counts are exact.
  const limiter = memoryRateLimiter(() => 1_000_000);
  const server = useServer({ RATE_LIMIT_SANDBOX: '2', RATE_LIMIT_ORG_MULTIPLE: '2' }, { limiter });

  test('six keys of one org share 2 × 2 per second; the other mode has its own budget', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 7; i++) keys.push(await server.key('acme')); // one at a time: the first creates the org
    const { ok, limited } = await burst(24, (i) =>
      call(server.url, 'GET', '/v1/fintech/accounts', { key: keys[i % 6] }),
    );
    // Each key alone would allow 2, six of them 12; the org allows 4.
    assert.equal(ok, 4, `${ok} allowed, ${limited} limited; the org budget is 4`);
    const fresh = await call(server.url, 'GET', '/v1/fintech/accounts', { key: keys[6] });
    assert.equal(fresh.status, 429, 'a fresh key of a drained org is refused');
    assert.match(fresh.body.detail, /organisation/);
    const live = await call(server.url, 'GET', '/v1/fintech/accounts', { key: await server.key('acme', 'live') });
    assert.equal(live.status, 200);
  });

  test('the headers report whichever budget is nearer to empty', async () => {
    const [a, b, c] = [await server.key('beta'), await server.key('beta'), await server.key('beta')];
    const first = await call(server.url, 'GET', '/v1/fintech/accounts', { key: a });
    // a's own budget (2) has 1 left, the org's (4) 3: the key's is nearer to empty.
    assert.equal(first.headers.get('ratelimit'), '"default";r=1;t=1');
    assert.match(first.headers.get('ratelimit-policy') ?? '', /q=2;/);
    await call(server.url, 'GET', '/v1/fintech/accounts', { key: b });
    const third = await call(server.url, 'GET', '/v1/fintech/accounts', { key: c });
    // c's own budget has 1 left, the org's 1 too: then b's second request leaves the org at 0, c's key at 1.
    assert.equal(third.status, 200);
    const fourth = await call(server.url, 'GET', '/v1/fintech/accounts', { key: b });
    assert.equal(fourth.status, 200);
    assert.match(fourth.headers.get('ratelimit') ?? '', /r=0;/);
    const fifth = await call(server.url, 'GET', '/v1/fintech/accounts', { key: c });
    assert.equal(fifth.status, 429, 'c still has 1 of its own, but the org has none');
    assert.match(fifth.headers.get('ratelimit-policy') ?? '', /q=4;/);
  });
});

describe('key management (docs/api.md#keys-and-the-sandbox)', () => {
  const server = useServer({ API_KEYS_PER_ORG: '3' });
  const signup = async () => (await call(server.url, 'POST', '/v1/sandbox/signup', { json: {} })).body.api_key;

  test('at most API_KEYS_PER_ORG active keys per org and mode → 409 api_key_limit_reached', async () => {
    const first = await signup();
    const made = [];
    for (let i = 0; i < 2; i++) made.push((await call(server.url, 'POST', KEYS, { key: first.key })).body);
    assertProblem(await call(server.url, 'POST', KEYS, { key: first.key }), 'api_key_limit_reached');
    assert.equal((await call(server.url, 'POST', `${KEYS}/${made[0].id}/revoke`, { key: first.key })).status, 200);
    assert.equal((await call(server.url, 'POST', KEYS, { key: first.key })).status, 200, 'a revoked key frees a place');
  });

  // With an Idempotency-Key the 409 is the request's stored outcome (docs/api.md#safe-retries-idempotency-key), replayed as it was. The org's lock
  // once was a no-op update, so each refusal came after a write, and the idempotency step answered 500 instead.
  test('the key limit and the last active key refuse alike with an Idempotency-Key, and the refusal replays', async () => {
    const first = await signup();
    for (let i = 0; i < 2; i++) await call(server.url, 'POST', KEYS, { key: first.key });
    const once = { key: first.key, headers: { 'idempotency-key': 'limit-1' } };
    const refused = await call(server.url, 'POST', KEYS, once);
    assertProblem(refused, 'api_key_limit_reached');
    const again = await call(server.url, 'POST', KEYS, once);
    assertProblem(again, 'api_key_limit_reached');
    assert.equal(again.headers.get('idempotent-replayed'), 'true');

    const only = await signup();
    const revoke = { key: only.key, headers: { 'idempotency-key': 'last-1' } };
    assertProblem(await call(server.url, 'POST', `${KEYS}/${only.id}/revoke`, revoke), 'api_key_last_active');
    const replayed = await call(server.url, 'POST', `${KEYS}/${only.id}/revoke`, revoke);
    assertProblem(replayed, 'api_key_last_active');
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
  });

  test("revoking the org's last active key of a mode → 409 api_key_last_active; the operator CLI still can", async () => {
    const only = await signup();
    assertProblem(
      await call(server.url, 'POST', `${KEYS}/${only.id}/revoke`, { key: only.key }),
      'api_key_last_active',
    );
    const second = (await call(server.url, 'POST', KEYS, { key: only.key })).body;
    assert.equal((await call(server.url, 'POST', `${KEYS}/${only.id}/revoke`, { key: second.key })).status, 200);
    assertProblem(
      await call(server.url, 'POST', `${KEYS}/${second.id}/revoke`, { key: second.key }),
      'api_key_last_active',
    );
    const revoked = await revokeKeyById(operatorDeps(server.database), second.id);
    assert.notEqual(revoked?.revoked_at, null);
  });

  test('concurrent revocations cannot both pass the last-active-key rule, nor creations the limit', async () => {
    for (let round = 0; round < 5; round++) {
      const first = await signup();
      const second = (await call(server.url, 'POST', KEYS, { key: first.key })).body;
      const replies = await Promise.all([
        call(server.url, 'POST', `${KEYS}/${first.id}/revoke`, { key: second.key }),
        call(server.url, 'POST', `${KEYS}/${second.id}/revoke`, { key: first.key }),
      ]);
      // The loser is refused as the last active key, or, when the winner committed before it authenticated, as
      // a revoked key: either way one key stays active.
      const statuses = replies.map((r) => r.status).sort();
      assert.ok(statuses[0] === 200 && [401, 409].includes(statuses[1]!), `round ${round}: ${statuses}`);
      const owner = await signup();
      const made = await Promise.all(
        Array.from({ length: 4 }, () => call(server.url, 'POST', KEYS, { key: owner.key })),
      );
      assert.equal(made.filter((r) => r.status === 200).length, 2, `round ${round}: 3 active keys at most`);
    }
  });

  test('keys have a name (1–100 characters), and GET /v1/api_keys/{id} retrieves one', async () => {
    const owner = await signup();
    const named = await call(server.url, 'POST', KEYS, { key: owner.key, json: { name: 'CI deploys' } });
    assert.equal(named.status, 200, named.text);
    assert.equal(named.body.name, 'CI deploys');
    const got = await call(server.url, 'GET', `${KEYS}/${named.body.id}`, { key: owner.key });
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.name, 'CI deploys');
    assert.equal(got.body.key, undefined, 'never the secret');
    assert.equal(owner.name, null, 'a key made without a name has none');
    for (const name of ['', ' ', 'x'.repeat(101), 'a\u200Bb', 7]) {
      assertProblem(
        await call(server.url, 'POST', KEYS, { key: owner.key, json: { name } }),
        'parameter_invalid',
        'name',
      );
    }
    const stranger = await signup();
    assertProblem(
      await call(server.url, 'GET', `${KEYS}/${named.body.id}`, { key: stranger.key }),
      'resource_not_found',
    );
    assertProblem(await call(server.url, 'GET', `${KEYS}/key_nope`, { key: owner.key }), 'resource_not_found');
  });

  test('last_used_at: null until used, then set without a write per request', async () => {
    const owner = await signup();
    const fresh = (await call(server.url, 'POST', KEYS, { key: owner.key })).body;
    assert.equal(fresh.last_used_at, null);
    for (let i = 0; i < 5; i++) await call(server.url, 'GET', '/v1/fintech/accounts', { key: fresh.key });
    await server.app.keyUsage.flush();
    const seen = await call(server.url, 'GET', `${KEYS}/${fresh.id}`, { key: owner.key });
    assert.match(seen.body.last_used_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);
  });

  test('last_used_at only moves forward: an older use written later leaves the newer one', async () => {
    const owner = await signup();
    const used = (await call(server.url, 'POST', KEYS, { key: owner.key })).body;
    server.app.keyUsage.record(used.id, Date.parse('2031-05-06T07:08:00Z'));
    await server.app.keyUsage.flush();
    server.app.keyUsage.record(used.id, Date.parse('2030-01-02T03:04:00Z')); // another process's older use
    await server.app.keyUsage.flush();
    const seen = await call(server.url, 'GET', `${KEYS}/${used.id}`, { key: owner.key });
    assert.equal(seen.body.last_used_at, '2031-05-06T07:08Z');
  });
});
