import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKEND } from '../../helpers/database.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, startServer, useServer } from '../../helpers/server.ts';

/** The value of one sample line of Prometheus text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  const server = useServer();

  test('counts requests by route template, method and status, and the commits that stored them', async () => {
    const key = await server.key('acme');
    for (let i = 0; i < 3; i++) {
      const created = await call(server.url, 'POST', '/v1/fintech/accounts', {
        key,
        json: { type: 'business', country: 'US' },
      });
      assert.equal(created.status, 200);
      assert.equal((await call(server.url, 'GET', `/v1/fintech/accounts/${created.body.id}`, { key })).status, 200);
    }
    const metrics = await call(server.url, 'GET', '/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const route = (path: string, method: string) =>
      `plinth_http_requests_total{route="${path}",method="${method}",status="200"}`;
    assert.equal(sample(metrics.text, route('/v1/fintech/accounts', 'POST')), 3);
    assert.equal(sample(metrics.text, route('/v1/fintech/accounts/:id', 'GET')), 3);
    assert.ok((sample(metrics.text, 'plinth_db_group_commit_batch_size_count') ?? 0) >= 1, 'commits are observed');
    assert.ok((sample(metrics.text, 'plinth_db_commit_duration_seconds_count') ?? 0) >= 1);
    if (BACKEND === 'postgres') {
      // Every write's statements (BEGIN and COMMIT included): at least those two per write counted.
      const writes = sample(metrics.text, 'plinth_db_statements_count') ?? 0;
      assert.ok(writes >= 3, 'the creates are counted');
      assert.ok((sample(metrics.text, 'plinth_db_statements_sum') ?? 0) >= 2 * writes);
    }
    assert.ok(sample(metrics.text, 'process_resident_memory_bytes') !== undefined, 'process metrics');
    assert.equal(sample(metrics.text, 'plinth_ledger_invariant_violations'), 0, 'the ledger is sound');
    assert.equal(sample(metrics.text, 'plinth_webhook_backlog'), 0, 'no endpoint, nothing to deliver');
    assert.doesNotMatch(metrics.text, /sk_(test|live)_/);
  });

  test('with METRICS_TOKEN, only `Authorization: Bearer <token>` gets them', async () => {
    const guarded = await startServer({ METRICS_TOKEN: 'scrape-me-7c1f' });
    try {
      assertProblem(await call(guarded.url, 'GET', '/metrics'), 'api_key_missing');
      const wrong = await call(guarded.url, 'GET', '/metrics', { headers: { authorization: 'Bearer nope' } });
      assertProblem(wrong, 'api_key_invalid');
      assert.doesNotMatch(wrong.text, /scrape-me/);
      const right = await call(guarded.url, 'GET', '/metrics', { headers: { authorization: 'Bearer scrape-me-7c1f' } });
      assert.equal(right.status, 200);
    } finally {
      await guarded.close();
    }
  });
});
