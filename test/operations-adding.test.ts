/**
 * docs/architecture.md, "Adding an operation", shown: a module declared here with one read and one write, composed
 * with every other module, is a route with its validation, its permission, its place in the OpenAPI document and its
 * idempotency, and the dashboard's reader calls it as a typed value, with no other file changed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Type } from 'typebox';
import { reader } from '../src/dashboard/act.ts';
import { MODULES } from '../src/modules.ts';
import { needs } from '../src/platform/auth/permissions.ts';
import type { Principal } from '../src/platform/auth/principal.ts';
import { defineModule, type Module } from '../src/platform/module.ts';
import { declareRead, declareWrite, implement } from '../src/platform/operations/operation.ts';
import { declareOperations } from '../src/platform/operations/register.ts';
import { startServer, type TestServer } from './helpers/server.ts';

const Greeting = Type.Object({ object: Type.Literal('greeting'), text: Type.String(), at: Type.String() });
const NameParams = Type.Object({ name: Type.String({ pattern: '^[a-z]{1,20}$' }) });

// 1. The declaration, at module scope: a typed value the dashboard and the CLI can name.
const greetingOps = {
  retrieveGreeting: declareRead({
    method: 'GET',
    path: '/v1/greetings/:name',
    permission: needs('accounts', 'read'),
    schema: {
      operationId: 'retrieveGreeting',
      'x-plinth-sdk': { resource: 'greetings', method: 'retrieve' },
      tags: ['Greetings'],
      summary: 'Greet someone',
      params: NameParams,
      response: { 200: Greeting },
    },
  }),
  createGreeting: declareWrite({
    method: 'POST',
    path: '/v1/greetings',
    permission: needs('accounts', 'write'),
    schema: {
      operationId: 'createGreeting',
      'x-plinth-sdk': { resource: 'greetings', method: 'create' },
      tags: ['Greetings'],
      summary: 'Make a greeting',
      body: Type.Object({ name: Type.String({ pattern: '^[a-z]{1,20}$' }) }, { additionalProperties: false }),
      response: { 200: Greeting },
    },
  }),
};

// 2. The service: the write gets its write's context (its time is the write's).
const greet = (name: string, at: Date) => ({
  object: 'greeting' as const,
  text: `Hello, ${name}`,
  at: at.toISOString(),
});

// 3. The module: its routes bind the declarations to the service. One more line in src/modules.ts would ship it.
const greetings: Module = defineModule({
  name: 'greetings',
  tags: [{ name: 'Greetings', description: 'A test-only module.' }],
  install(app, { clock, withIdempotency }) {
    declareOperations(app, { withIdempotency }, [
      implement(greetingOps.retrieveGreeting, { read: async (_owner, input) => greet(input.params.name, clock()) }),
      implement(greetingOps.createGreeting, { write: async (ctx, input) => greet(input.body.name, ctx.now) }),
    ]);
  },
});

describe('adding an operation (docs/architecture.md, "Adding an operation")', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer({}, { modules: [...MODULES, greetings] });
    key = await server.key('greeter');
  });
  after(() => server.close());

  const call = (path: string, init: RequestInit = {}, bearer = key) =>
    fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${bearer}`, ...init.headers } });

  test('a route, validated by its schema, answered by its service', async () => {
    const ok = await call('/v1/greetings/ada');
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as { text: string }).text, 'Hello, ada');
    const bad = await call('/v1/greetings/ADA!');
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { code: string }).code, 'parameter_invalid');
  });

  test('in the OpenAPI document, with its permission', async () => {
    const document = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; 'x-permission': unknown }>>;
    };
    const op = document.paths['/v1/greetings/{name}']?.get;
    assert.equal(op?.operationId, 'retrieveGreeting');
    assert.deepEqual(op?.['x-permission'], { group: 'accounts', level: 'read' });
  });

  test('a restricted key without the permission is refused; the write is idempotent under a key', async () => {
    const made = await call('/v1/api_keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ permissions: { transfers: 'read' } }),
    });
    const restricted = ((await made.json()) as { key: string }).key;
    assert.equal((await call('/v1/greetings/ada', {}, restricted)).status, 403);
    const post = () =>
      call('/v1/greetings', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'greet-1' },
        body: JSON.stringify({ name: 'grace' }),
      });
    const first = await post();
    const again = await post();
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(await again.text(), await first.text());
  });

  test('the dashboard reads it as a typed value: input and result inferred from the declaration', async () => {
    const read = reader(server.app.operations);
    const principal: Principal = { orgId: 'org_x', mode: 'sandbox', keyId: 'key_x', permissions: null } as Principal;
    const greeting = await read(principal, greetingOps.retrieveGreeting, { params: { name: 'linus' } });
    // `greeting.text` is a string to the type checker: no assertion was needed to read it.
    assert.equal(greeting.text.toUpperCase(), 'HELLO, LINUS');
  });
});
