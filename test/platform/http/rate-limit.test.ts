import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { gcra, memoryRateLimiter } from '../../../src/platform/http/rate-limit.ts';
import { assertRateLimited, burst } from '../../helpers/burst.ts';
import { call, useServer } from '../../helpers/server.ts';

const PATH = '/v1/fintech/accounts';

describe('GCRA', () => {
  test('remaining counts down by one per request at a fixed instant, then refuses with Retry-After', async () => {
    const limiter = memoryRateLimiter(() => 1_000_000);
    const limit = { rate: 5, burst: 5 };
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const d = await limiter.take('k', limit);
      assert.ok(d.allowed);
      remaining.push(d.remaining);
    }
    assert.deepEqual(remaining, [4, 3, 2, 1, 0]);
    const refused = await limiter.take('k', limit);
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterSeconds, 1);
    assert.ok((await limiter.take('other', limit)).allowed, 'keys are independent');
  });

  test('takeAll takes from each bucket in order and stops at the first refusal', async () => {
    const limiter = memoryRateLimiter(() => 1_000_000);
    const key = { key: 'key', limit: { rate: 1, burst: 1 } };
    const org = { key: 'org', limit: { rate: 4, burst: 4 } };
    assert.deepEqual(
      (await limiter.takeAll([key, org])).map((d) => d.allowed),
      [true, true],
    );
    assert.deepEqual(
      (await limiter.takeAll([key, org])).map((d) => d.allowed),
      [false],
    );
    assert.equal((await limiter.take('org', org.limit, true)).remaining, 2, "the refused key did not spend the org's");
  });

  test('takeAllNow (the in-process limiter, no promise) decides as takeAll, on the same buckets', async () => {
    const [sync, awaited] = [memoryRateLimiter(() => 1_000_000), memoryRateLimiter(() => 1_000_000)];
    const buckets = [
      { key: 'key', limit: { rate: 2, burst: 2 } },
      { key: 'org', limit: { rate: 3, burst: 3 } },
    ];
    for (let i = 0; i < 4; i++) assert.deepEqual(sync.takeAllNow!(buckets), await awaited.takeAll(buckets));
    assert.deepEqual(
      sync.takeAllNow!(buckets).map((d) => d.allowed),
      [false],
    );
  });

  test('property: in any window, no more than burst + rate × window requests are allowed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 300 }),
        (rate, burstSize, offsets) => {
          const times = offsets.sort((a, b) => a - b);
          let tat = 0;
          const allowedAt: number[] = [];
          for (const t of times) {
            const { decision, newTatMs } = gcra(tat, t, { rate, burst: burstSize });
            tat = newTatMs;
            if (decision.allowed) allowedAt.push(t);
            else if (decision.retryAfterSeconds < 1) return false;
          }
          for (let i = 0; i < allowedAt.length; i++) {
            for (let j = i; j < allowedAt.length; j++) {
              const window = (allowedAt[j]! - allowedAt[i]!) / 1000;
              if (j - i + 1 > burstSize + rate * window + 1e-9) return false;
            }
          }
          return true;
        },
      ),
    );
  });
});

describe('rate limits over HTTP, in process', () => {
  const server = useServer({
    RATE_LIMIT_SANDBOX: '5',
    RATE_LIMIT_LIVE: '8',
    AUTH_FAILURE_BURST: '3',
    SIGNUP_PER_HOUR: '2',
  });

  test('a burst of 3× the quota lets through no more than quota + burst; the rest get a correct 429; another key is unaffected', async () => {
    const key = await server.key('acme');
    const other = await server.key('acme');
    const started = Date.now();
    const result = await burst(15, () => call(server.url, 'GET', PATH, { key }));
    const seconds = (Date.now() - started) / 1000;
    assert.ok(result.ok >= 5, `at least the burst passes: ${result.ok}`);
    // GCRA's bound over the burst's duration; for a burst under a second that is under quota + burst.
    assert.ok(result.ok <= 5 + 5 * seconds, `no more than quota + burst: ${result.ok} in ${seconds}s`);
    assert.equal(result.ok + result.limited, 15);
    assert.ok(result.limited > 0);
    for (const r of result.replies.filter((x) => x.status === 429)) {
      assert.equal(r.headers.get('ratelimit-policy'), '"default";q=5;w=1');
      assert.match(r.headers.get('ratelimit')!, /^"default";r=0;t=\d+$/);
    }
    assert.equal((await call(server.url, 'GET', PATH, { key: other })).status, 200);
  });

  test('every authenticated response carries RateLimit-Policy and RateLimit, by mode', async () => {
    const sandbox = await server.key('globex');
    const live = await server.key('globex', 'live');
    const a = await call(server.url, 'GET', PATH, { key: sandbox });
    assert.equal(a.headers.get('ratelimit-policy'), '"default";q=5;w=1');
    assert.equal(a.headers.get('ratelimit'), '"default";r=4;t=1');
    const b = await call(server.url, 'POST', PATH, { key: live, json: { type: 'nope' } });
    assert.equal(b.status, 400, 'errors after authentication carry the headers too');
    assert.equal(b.headers.get('ratelimit-policy'), '"default";q=8;w=1');
    assert.match(b.headers.get('ratelimit')!, /^"default";r=7;t=1$/);
    const unauthenticated = await call(server.url, 'GET', '/healthz');
    assert.equal(unauthenticated.headers.get('ratelimit'), null);
  });

  test('failed authentications are limited per address; a valid key from the address still works', async () => {
    const key = await server.key('initech');
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await call(server.url, 'GET', PATH, { key: 'sk_test_nope' })).status);
    assert.deepEqual(answers.slice(0, 3), [401, 401, 401]);
    assertRateLimited(await call(server.url, 'GET', PATH, { key: 'sk_test_nope' }));
    assertRateLimited(await call(server.url, 'GET', PATH));
    assert.equal((await call(server.url, 'GET', PATH, { key })).status, 200);
  });

  test('sandbox sign-ups are limited per address', async () => {
    assert.equal((await call(server.url, 'POST', '/v1/sandbox/signup')).status, 200);
    assert.equal((await call(server.url, 'POST', '/v1/sandbox/signup')).status, 200);
    const refused = await call(server.url, 'POST', '/v1/sandbox/signup');
    assertRateLimited(refused);
    assert.ok(Number(refused.headers.get('retry-after')) > 60, 'a sign-up refill is measured in minutes');
  });
});
