import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { generateDocument } from '../../scripts/openapi.ts';
import { ERROR_CODES } from '../../src/modules.ts';
import type { ErrorCode } from '../../src/platform/http/errors.ts';
import { readmeErrorCatalogue } from '../helpers/catalogue.ts';
import { checkResponse, DOCUMENT } from '../helpers/openapi.ts';
import { run } from '../helpers/process.ts';
import { call, useServer } from '../helpers/server.ts';

const COMMITTED = readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8');

function* operations(): Generator<[string, string, any]> {
  for (const [path, item] of Object.entries<any>(DOCUMENT.paths))
    for (const [method, op] of Object.entries<any>(item)) yield [path, method, op];
}

function* schemas(node: unknown, at = '#'): Generator<[string, any]> {
  if (node === null || typeof node !== 'object') return;
  yield [at, node];
  for (const [k, v] of Object.entries(node)) yield* schemas(v, `${at}/${k}`);
}

describe('the OpenAPI document', () => {
  const server = useServer();

  test('the committed openapi/openapi.json is exactly what the code generates (run `npm run openapi`)', async () => {
    assert.equal(await generateDocument(), COMMITTED);
  });

  test('Redocly CLI lint (recommended rules) finds no errors and no unignored warnings', async () => {
    const result = await run(
      ['node_modules/@redocly/cli/bin/cli.js', 'lint', 'openapi/openapi.json', '--format=summary'],
      { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    );
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stdout + result.stderr, /\berror\b|warning/i, result.stdout + result.stderr);
  });

  test('served at /v1/openapi.json without a key, equal to the committed file', async () => {
    const reply = await call(server.url, 'GET', '/v1/openapi.json');
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('content-type')!, /^application\/json/);
    assert.deepEqual(reply.body, JSON.parse(COMMITTED));
  });

  test('inventory: the routes the server answers and the operations in the document are the same set', () => {
    // The web console's HTML pages (/dashboard, docs/dashboard.md) are not operations of the API.
    const served = [...server.app.routeTable]
      .filter(([url]) => !url.startsWith('/dashboard'))
      .flatMap(([url, methods]) =>
        [...methods].filter((m) => m !== 'HEAD').map((m) => `${m} ${url.replace(/:(\w+)/g, '{$1}')}`),
      );
    const documented = [...operations()].map(([path, method]) => `${method.toUpperCase()} ${path}`);
    assert.deepEqual(served.sort(), documented.sort());
  });

  test('OpenAPI 3.1 with a bearer scheme that every /v1 operation but the document and the sign-up requires', () => {
    assert.equal(DOCUMENT.openapi, '3.1.0');
    assert.deepEqual(DOCUMENT.components.securitySchemes.bearerAuth, {
      ...DOCUMENT.components.securitySchemes.bearerAuth,
      type: 'http',
      scheme: 'bearer',
    });
    assert.deepEqual(DOCUMENT.security, [{ bearerAuth: [] }]);
    for (const [path, method, op] of operations()) {
      const isPublic = !path.startsWith('/v1/') || path === '/v1/openapi.json' || path === '/v1/sandbox/signup';
      assert.equal(op.security?.length === 0, isPublic, `${method} ${path}`);
      assert.ok(op.operationId && op.summary, `${method} ${path} has an operationId and a summary`);
    }
  });

  test('every error response is the shared problem schema, as application/problem+json, with Request-Id', () => {
    // The enum is built from ERROR_CODES; the README's hand-written table is what it must agree with.
    const documented = readmeErrorCatalogue().map(([code]) => code);
    assert.deepEqual([...DOCUMENT.components.schemas.Problem.properties.code.enum].sort(), documented.sort());
    for (const [path, method, op] of operations()) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        assert.deepEqual(
          response.headers['Request-Id'],
          { $ref: '#/components/headers/Request-Id' },
          `${method} ${path} ${status}`,
        );
        if (Number(status) < 400) continue;
        assert.deepEqual(Object.keys(response.content), ['application/problem+json']);
        assert.deepEqual(response.content['application/problem+json'].schema, { $ref: '#/components/schemas/Problem' });
        for (const [code, example] of Object.entries<any>(response.content['application/problem+json'].examples)) {
          assert.equal(ERROR_CODES[code as ErrorCode].status, Number(status));
          assert.equal(example.value.code, code);
        }
      }
      if (op.security === undefined)
        assert.ok(
          op.responses['401'].content['application/problem+json'].examples.api_key_missing,
          `${method} ${path} documents 401`,
        );
      assert.ok(op.responses['503'].headers['Retry-After'], `${method} ${path} documents 503 with Retry-After`);
    }
    const create = DOCUMENT.paths['/v1/fintech/accounts'].post;
    assert.deepEqual(Object.keys(create.responses['400'].content['application/problem+json'].examples).sort(), [
      'body_malformed',
      'country_unsupported',
      'parameter_invalid',
      'parameter_missing',
      'parameter_unknown',
    ]);
    assert.ok(create.responses['413'] && create.responses['415']);
    assert.ok(DOCUMENT.paths['/v1/fintech/accounts/{id}'].get.responses['404']);
  });

  test('the account: open status, integer minor units, created_at as a pattern, nullable kyb in 3.1 form', () => {
    const account = DOCUMENT.components.schemas.Account;
    assert.equal(account.properties.status.enum, undefined, 'status is an open enum');
    assert.match(account.properties.status.description, /accept values they do not know/);
    assert.equal(account.properties.available_balance.properties.amount.type, 'integer');
    assert.match(account.properties.available_balance.properties.amount.description, /minor unit/);
    assert.equal(account.properties.created_at.format, undefined);
    assert.equal(account.properties.created_at.pattern, '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}Z$');
    assert.deepEqual(account.properties.kyb.type, ['object', 'null']);
    for (const [at, node] of schemas(DOCUMENT)) assert.equal(node.nullable, undefined, `nullable: true at ${at}`);
    assert.ok(account.examples?.length > 0, 'the response has an example');
    assert.ok(
      Object.keys(DOCUMENT.paths['/v1/fintech/accounts'].post.requestBody.content['application/json'].examples)
        .length >= 2,
      'the request has examples',
    );
  });

  test('an integer that can pass 2^31 says `format: int64`, so Go, Java, Kotlin and Rust clients decode it as 64-bit', () => {
    // Integers that stay small, each bounded by what it is (the rest must have a maximum below 2^31, or int64).
    const small = new Set([
      '#/components/schemas/Problem/properties/status', // an HTTP status
      '#/components/schemas/WebhookDelivery/properties/attempts/items/properties/response_status', // the same
      '#/components/schemas/WebhookDelivery/properties/attempts/items/properties/duration_ms', // within the timeout
      '#/components/schemas/RequestLog/properties/count', // refusals of one key in one second
      '#/components/headers/Retry-After/schema', // seconds to wait
    ]);
    const unmarked: string[] = [];
    for (const [at, node] of schemas(DOCUMENT)) {
      const types = [node.type].flat();
      if (!types.includes('integer') || node.format === 'int64' || small.has(at)) continue;
      if (!(typeof node.maximum === 'number' && node.maximum < 2 ** 31)) unmarked.push(at);
    }
    assert.deepEqual(unmarked, [], 'integers without a maximum below 2^31 and without format: int64');
    const { schemas: s } = DOCUMENT.components;
    for (const integer of [
      s.Event.properties.sequence,
      s.AuditChainLink.properties.sequence,
      s.AuditCheckpoint.properties.size,
      DOCUMENT.paths['/v1/audit/chain'].get.parameters.find((p: any) => p.name === 'after').schema,
      s.Account.properties.available_balance.properties.amount,
    ])
      assert.equal(integer.format, 'int64', JSON.stringify(integer));
  });

  test('the response checker itself rejects drift', () => {
    const headers = new Headers({ 'content-type': 'application/json', 'request-id': 'req_01M7Z25FEAPTK5AVEMG5JXPY7P' });
    const account = { ...DOCUMENT.components.schemas.Account.examples[0] };
    const url = 'http://x/v1/fintech/accounts/acct_01M7Z25FCR5ZY0JCJ80M91V6XV';
    checkResponse('GET', url, 200, headers, '', account);
    assert.throws(() => checkResponse('GET', url, 418, headers, '', account), /does not list/);
    assert.throws(
      () =>
        checkResponse(
          'GET',
          url,
          200,
          new Headers({ ...Object.fromEntries(headers), 'content-type': 'text/plain' }),
          '',
          account,
        ),
      /does not list/,
    );
    assert.throws(() => checkResponse('GET', url, 200, headers, '', { ...account, status: 1 }), /does not match/);
    assert.throws(
      () => checkResponse('GET', url, 200, headers, '', { ...account, created_at: '2026-11-21T12:06:00Z' }),
      /does not match/,
    );
    assert.throws(() => checkResponse('GET', url, 200, headers, '', { ...account, secret: 'x' }), /does not match/);
    // `format: int64` is checked, not ignored: an amount past 2^53 − 1 is no longer exact in JSON.
    const balance = { ...account.available_balance, amount: 2 ** 53 };
    assert.throws(
      () => checkResponse('GET', url, 200, headers, '', { ...account, available_balance: balance }),
      /does not match/,
    );
  });
});
