import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

// Found by the fuzzer (scripts/fuzz.ts): a request no route matches still runs the hooks and Fastify's own body
// checks, and what they objected to (a QUERY without Content-Type: 500; an Idempotency-Key on PATCH or TRACE: 400) was
// answered instead of the 404 or 405 the request deserves.
const server = useServer();

test('QUERY on a known path without Content-Type is a 405 with Allow, not a 500', async () => {
  for (const path of ['/healthz', '/v1/openapi.json', '/v1/fintech/accounts/acct_1', '/docs']) {
    const reply = await call(server.url, 'QUERY', path);
    assertProblem(reply, 'method_not_allowed');
    assert.match(reply.headers.get('allow') ?? '', /GET/);
  }
});

test('an Idempotency-Key or a malformed body on an unrouted request does not change its 404/405', async () => {
  const key = await server.key('acme');
  const headers = { 'idempotency-key': 'k1' };
  assertProblem(await call(server.url, 'PATCH', '/v1/fintech/accounts', { key, headers }), 'method_not_allowed');
  assertProblem(await call(server.url, 'QUERY', '/v1/nothing', { key, headers }), 'route_not_found');
  const raw = '{"a":';
  const json = { 'content-type': 'application/json' };
  assertProblem(await call(server.url, 'POST', '/v1/nothing', { raw, headers: json }), 'route_not_found');
  assertProblem(await call(server.url, 'PUT', '/v1/fintech/accounts', { raw, headers: json }), 'method_not_allowed');
});
