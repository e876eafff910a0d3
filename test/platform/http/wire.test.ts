import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ERROR_CODES } from '../../../src/modules.ts';
import { readmeErrorCatalogue } from '../../helpers/catalogue.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

describe('wire basics and the one error model', () => {
  const server = useServer();
  let key: string;
  before(async () => {
    key = await server.key('acme');
  });

  test('unknown route → 404 route_not_found, with or without a key', async () => {
    for (const path of ['/v1/nope', '/v2/fintech/accounts', '/', '/v1/fintech/accounts/acct_x/extra']) {
      assertProblem(await call(server.url, 'GET', path), 'route_not_found');
      assertProblem(await call(server.url, 'GET', path, { key }), 'route_not_found');
    }
  });

  test('known path, wrong method → 405 method_not_allowed with Allow', async () => {
    const collection = await call(server.url, 'DELETE', '/v1/fintech/accounts', { key });
    assertProblem(collection, 'method_not_allowed');
    assert.equal(collection.headers.get('allow'), 'GET, HEAD, POST');
    const item = await call(server.url, 'PUT', '/v1/fintech/accounts/acct_x', { key, json: {} });
    assertProblem(item, 'method_not_allowed');
    assert.equal(item.headers.get('allow'), 'GET, HEAD, POST'); // retrieve, and the metadata update
  });

  test('every response carries a unique Request-Id and no X-Powered-By', async () => {
    const replies = [
      await call(server.url, 'POST', '/v1/fintech/accounts', { key, json: { type: 'business', country: 'US' } }),
      await call(server.url, 'GET', '/v1/fintech/accounts', { key }),
      await call(server.url, 'GET', '/v1/fintech/accounts'),
      await call(server.url, 'GET', '/nope'),
      await call(server.url, 'POST', '/v1/fintech/accounts', {
        key,
        raw: '{',
        headers: { 'content-type': 'application/json' },
      }),
      await call(server.url, 'GET', '/healthz'),
      await call(server.url, 'GET', '/%E0%A4%A'),
    ];
    const ids = replies.map((r) => r.headers.get('request-id'));
    for (const [i, r] of replies.entries()) {
      assert.match(ids[i] ?? '', /^req_[0-9A-Z]{26}$/, `reply ${i}: ${r.status}`);
      assert.equal(r.headers.get('x-powered-by'), null);
      if (r.status >= 400) assert.equal(r.body.request_id, ids[i]);
    }
    assert.equal(new Set(ids).size, ids.length);
  });

  test('a client cannot choose its request id', async () => {
    const reply = await call(server.url, 'GET', '/healthz', {
      headers: { 'request-id': 'req_mine', 'x-request-id': 'req_mine' },
    });
    assert.notEqual(reply.headers.get('request-id'), 'req_mine');
  });

  test("each problem type resolves to that code's entry in the error catalogue", async () => {
    const page = await call(server.url, 'GET', '/docs/errors');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      assert.match(page.text, new RegExp(`<section id="${code}"><h2><code>${code}</code> — ${entry.status} `));
    }
  });

  test('the README error catalogue lists every code with its status, and nothing else', () => {
    assert.deepEqual(
      readmeErrorCatalogue().sort(),
      Object.entries(ERROR_CODES)
        .map(([code, e]) => [code, e.status])
        .sort(),
    );
  });
});
