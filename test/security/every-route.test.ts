import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Trx } from '../../src/db/database.ts';
import { createEndpoint } from '../../src/modules/webhooks/api/endpoints.service.ts';
import { signingSecrets } from '../../src/modules/webhooks/engine/signing-secrets.ts';
import { eventRecorderOutsideTheApp } from '../../src/modules.ts';
import { checksum } from '../../src/platform/auth/key-format.ts';
import { PERMISSION_GROUPS } from '../../src/platform/auth/permissions.ts';
import { idPattern, newId } from '../../src/platform/kit/ids.ts';
import { storedTime, systemClock } from '../../src/platform/kit/time.ts';
import { createSecretBox } from '../../src/platform/secrets/box.ts';
import { postJournal } from '../../src/products/fintech/ledger/post.ts';
import { lockSides, lockSystemSide } from '../../src/products/fintech/ledger/sides.ts';
import { ensureSystemAccount } from '../../src/products/fintech/ledger/system-account.ts';
import { money } from '../helpers/money.ts';
import { assertProblem } from '../helpers/problem.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { call, loopbackOnly, type Reply, startServer, type TestServer } from '../helpers/server.ts';
import { stringPaths, withSurrogate } from '../helpers/surrogates.ts';

/**
 * Security tests every /v1 route gets without asking (as Unkey's runCommonRouteTests): the routes come from the
 * app's own inventory (`app.routeTable`), so a route added tomorrow is tested tomorrow, and one the OpenAPI
 * document does not describe fails here. Objects for path ids are made through the collection's own POST with
 * its documented example body, so a new kind of object needs no fixture unless it has no such POST.
 */
const secrets = createSecretBox(randomBytes(32));
// A routing number of this deployment's bank, so that live account numbers can be made (else 409).
const server: TestServer = await startServer({ BANK_ROUTING_NUMBER: '021000021' }, { secrets });
const receiver = await startReceiver(); // webhook endpoints here target 127.0.0.1 only
after(async () => {
  await server.close();
  await receiver.close();
});
const document = server.app.swagger() as any;

interface Route {
  method: string;
  pattern: string; // Fastify's, `/v1/api_keys/:id/revoke`
  path: string; // OpenAPI's, `/v1/api_keys/{id}/revoke`
  operation: any;
  public: boolean;
}

const routes: Route[] = [...server.app.routeTable].flatMap(([pattern, methods]) =>
  [...methods]
    .filter((m) => m !== 'HEAD' && pattern.startsWith('/v1/'))
    .map((method) => {
      const path = pattern.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[method.toLowerCase()];
      return { method, pattern, path, operation, public: operation?.security?.length === 0 };
    }),
);

/** The first documented example body of a POST (the plainest), or `{}`; undefined when it takes no body. */
function exampleBody(route: Route): Record<string, unknown> | undefined {
  const body = route.operation?.requestBody;
  if (body === undefined) return undefined;
  const media = body.content['application/json'];
  const examples = Object.values<{ value: object }>(media.examples ?? {});
  return structuredClone({ ...(media.example ?? examples[0]?.value) });
}
const resolve = (schema: any): any =>
  schema.$ref ? document.components.schemas[schema.$ref.split('/').at(-1)] : schema;

// Two orgs, and both modes of the first: every foreign object must look exactly like one that never existed.
const keys = { own: await server.key('sec-own'), live: await server.key('sec-own', 'live') };
const foreign = await server.key('sec-other');

const isLive = (key: string) => key.startsWith('sk_live_');
const ok = async (reply: Promise<Reply>) => {
  const done = await reply;
  assert.equal(done.status, 200, done.text);
  return done.body;
};

/**
 * A restricted key holding `write` on every group behaves as a full key wherever it is allowed
 * (docs/api.md#restricted-keys): the isolation and bad-input checks below run with it too.
 */
const allWrite = Object.fromEntries(PERMISSION_GROUPS.map((group) => [group, 'write']));
const restricted: string = (
  await ok(call(server.url, 'POST', '/v1/api_keys', { key: keys.own, json: { permissions: allWrite } }))
).key;
assert.match(restricted, /^rk_test_/);
const callers: [string, string][] = [
  ['full key', keys.own],
  ['restricted key, write on every group', restricted],
];

/**
 * Money for an account, and the id of the transaction that brought it. Sandbox keys deposit through the API; live
 * money has no way in through the API, so for a live account the fixture posts the journal a deposit would (as the
 * ledger's own tests post journals).
 */
async function fund(key: string, accountId: string, amount: number): Promise<string> {
  if (!isLive(key)) return (await money(server.url, key).deposit(accountId, amount)).id;
  const account = await server.database.db
    .selectFrom('accounts')
    .select(['org_id', 'currency'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return server.database.write(async (trx) => {
    const at = storedTime(new Date());
    const system = await ensureSystemAccount(trx, account.org_id, 'live', account.currency, at);
    const journal = { id: newId('sdep'), org_id: account.org_id, mode: 'live' as const, currency: account.currency };
    const posted = await postJournal(
      trx,
      { ...journal, source_type: 'sandbox_deposit', description: null, created_at: at },
      [
        { side: (await lockSides(trx, { orgId: account.org_id, mode: 'live' }, [accountId])).get(accountId)!, amount },
        { side: (await lockSystemSide(trx, system))!, amount: -amount },
      ],
    );
    return posted.find((p) => p.accountId === accountId)!.entryId;
  });
}

/**
 * One webhook endpoint per key, made once (an org has at most 16 per mode, and this test never changes the one it
 * makes: every request on it is refused before it acts). Sandbox ones are made through the API; a live endpoint
 * must be https on a public host, which a test never targets, so the live one is made by the service itself, on
 * 127.0.0.1, past the URL check.
 */
const endpoints = new Map<string, Promise<string>>();
function endpointFor(key: string): Promise<string> {
  const made = endpoints.get(key) ?? makeEndpoint(key);
  endpoints.set(key, made);
  return made;
}
async function makeEndpoint(key: string): Promise<string> {
  const body = { url: receiver.url, enabled_events: ['*' as const] };
  if (!isLive(key)) return (await ok(call(server.url, 'POST', '/v1/webhook_endpoints', { key, json: body }))).id;
  const mine = await ok(call(server.url, 'GET', '/v1/api_keys?limit=100', { key }));
  const listed = mine.data.find((k: { hint: string }) => key.endsWith(k.hint.slice(-4)));
  const [keyId, keyHint] = [listed.id as string, listed.hint as string];
  const account = await money(server.url, key).account();
  const { org_id: orgId } = await server.database.db
    .selectFrom('accounts')
    .select('org_id')
    .where('id', '=', account)
    .executeTakeFirstOrThrow();
  const deps = {
    db: server.database.db,
    clock: systemClock,
    box: signingSecrets(secrets),
    events: eventRecorderOutsideTheApp(),
    resolve: loopbackOnly,
    allowPrivate: false,
  };
  const owner = { orgId, mode: 'live' as const, keyId, keyHint, permissions: null };
  const live = { ...body, url: receiver.url.replace('http:', 'https:') };
  const ctx = (trx: Trx) => ({ trx, owner, request: null, now: systemClock() });
  return (await server.database.write((trx) => createEndpoint(deps, ctx(trx), live))).id;
}

/** Objects whose collection has no POST, or whose POST needs other objects first: made here, for `key`. */
const fixtures: Record<string, (key: string) => Promise<string>> = {
  '/v1/sandbox/fintech/accounts': (key) => money(server.url, key).account(),
  '/v1/fintech/transactions': async (key) => fund(key, await money(server.url, key).account(), 2500),
  async '/v1/fintech/transfers'(key) {
    const m = money(server.url, key);
    const [from, to] = [await m.account(), await m.account()];
    await fund(key, from, 2500);
    return (await m.transfer(from, to, 2500)).id;
  },
  async '/v1/sandbox/fintech/transfers'(key) {
    const m = money(server.url, key);
    const [from, to] = [await m.account(), await m.account()];
    await fund(key, from, 2500);
    const json = { from_account_id: from, to_account_id: to, amount: 2500, currency: 'USD', pending: true };
    const hold = await ok(call(server.url, 'POST', '/v1/fintech/transfers', { key, json }));
    assert.equal(hold.status, 'pending', JSON.stringify(hold));
    return hold.id;
  },
  async '/v1/events'(key) {
    const account = await money(server.url, key).account();
    const page = await ok(call(server.url, 'GET', '/v1/events?type=fintech.account.created&limit=10', { key }));
    return page.data.find((e: { data: { object: { id: string } } }) => e.data.object.id === account).id;
  },
  async '/v1/requests'(key) {
    // A request of the key's own, once its entry is written (the log is written in batches, off the request's path).
    const id = (await call(server.url, 'GET', '/v1/fintech/accounts?limit=1', { key })).headers.get('request-id')!;
    await server.app.requestLog.flush();
    return (await ok(call(server.url, 'GET', `/v1/requests/${id}`, { key }))).id;
  },
  '/v1/webhook_endpoints': endpointFor,
  async '/v1/webhook_deliveries'(key) {
    const endpoint = await endpointFor(key);
    const event = await ok(call(server.url, 'POST', `/v1/webhook_endpoints/${endpoint}/test`, { key, json: {} }));
    const deliveries = await ok(call(server.url, 'GET', `/v1/events/${event.id}/deliveries`, { key }));
    assert.equal(deliveries.data.length, 1, JSON.stringify(deliveries));
    return deliveries.data[0].id;
  },
  async '/v1/fintech/account_numbers'(key) {
    const m = money(server.url, key);
    return (await m.post('/v1/fintech/account_numbers', { account_id: await m.account(), name: 'Security' })).id;
  },
  '/v1/fintech/payments': paymentFor,
  '/v1/sandbox/fintech/payments': paymentFor,
};

/**
 * A payment out by ACH from a funded account to a fresh external account: submitted in the sandbox, waiting for
 * its bank file in live mode (docs/api.md#bank-account-numbers-and-payments); either way one that can still change.
 */
async function paymentFor(key: string): Promise<string> {
  const m = money(server.url, key);
  const account = await m.account();
  await fund(key, account, 2500);
  const external = await m.post('/v1/fintech/external_accounts', {
    routing_number: '021000021',
    account_number: '000123456789',
    account_holder_name: 'Acme Supplies LLC',
    account_type: 'checking',
  });
  const json = { account_id: account, external_account_id: external.id, amount: 2500, currency: 'USD', rail: 'ach' };
  return (await m.post('/v1/fintech/payments', json)).id;
}

/**
 * Kinds of objects that exist in the sandbox only (a live key cannot make one: refused with 403, tested below), so
 * there is no other mode's object to try; another org's still is.
 */
const SANDBOX_ONLY_OBJECTS = new Set(['/v1/sandbox/fintech/payment_rules']);
const collectionOf = (route: Route) => route.pattern.replace(/\/:id(\/.*)?$/, '');

/** A fresh object for `pattern`'s path id, made by `key` through the collection's POST (or its fixture). */
async function objectFor(route: Route, key: string): Promise<string> {
  const collection = collectionOf(route);
  const fixture = fixtures[collection];
  if (fixture) return fixture(key);
  const create = routes.find((r) => r.pattern === collection && r.method === 'POST');
  assert.ok(create, `${route.pattern}: no POST ${collection} makes its objects; give this test a fixture`);
  const reply = await call(server.url, 'POST', collection, { key, json: exampleBody(create) ?? {} });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.id as string;
}
const fill = (route: Route, id: string) => route.pattern.replace(':id', encodeURIComponent(id));

/**
 * The path for this id with the route's required query parameters at their documented examples (a statement's
 * `from` and `to`), so that the request is refused for its id alone.
 */
function fillAll(route: Route, id: string): string {
  const required = (route.operation.parameters ?? []).filter((p: any) => p.in === 'query' && p.required);
  const query = required.map((p: any) => `${p.name}=${encodeURIComponent(p.example ?? p.schema.examples[0])}`);
  return fill(route, id) + (query.length === 0 ? '' : `?${query.join('&')}`);
}

/** The same request, sent as each route expects (a valid body for POSTs, so only what is tested differs). */
function send(route: Route, path: string, options: { key?: string; headers?: Record<string, string> } = {}) {
  const json = route.method === 'POST' ? (exampleBody(route) ?? {}) : undefined;
  return call(server.url, route.method, path, { ...options, json });
}

async function pathFor(route: Route): Promise<string> {
  return route.pattern.includes(':id') ? fill(route, await objectFor(route, keys.own)) : route.pattern;
}

/** Sends one request with the Authorization header twice (fetch would merge them into one). */
function twoAuthorizations(route: Route, path: string, values: [string, string]): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url + path);
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: route.method }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setHeader('authorization', values);
    req.setHeader('content-type', 'application/json');
    req.on('error', reject);
    req.end(route.method === 'POST' ? JSON.stringify(exampleBody(route) ?? {}) : undefined);
  });
}

const withChecksum = (body: string) => body + checksum(body);
const revoked = await server.key('sec-own');
{
  const mine = await call(server.url, 'GET', '/v1/api_keys?limit=100', { key: revoked });
  const id = mine.body.data.find((k: { hint: string }) => revoked.endsWith(k.hint.slice(-4))).id;
  assert.equal((await call(server.url, 'POST', `/v1/api_keys/${id}/revoke`, { key: keys.own })).status, 200);
}

test('every /v1 route is in the OpenAPI document', () => {
  assert.ok(routes.length >= 5, 'the route inventory is empty');
  for (const r of routes) assert.ok(r.operation, `${r.method} ${r.pattern} is not in the OpenAPI document`);
});

const sandboxOnly = routes.filter((r) => !r.public && r.pattern.startsWith('/v1/sandbox/'));

test('every sandbox route refuses a live key, full or restricted: 403 permission_denied, before it acts', async () => {
  assert.ok(sandboxOnly.length >= 10, `only ${sandboxOnly.length} sandbox routes`);
  const liveRestricted: string = (
    await ok(call(server.url, 'POST', '/v1/api_keys', { key: keys.live, json: { permissions: allWrite } }))
  ).key;
  assert.match(liveRestricted, /^rk_live_/);
  for (const route of sandboxOnly) {
    // The live key's own object where one can exist (so only the mode is refused), else the sandbox's.
    const owner = SANDBOX_ONLY_OBJECTS.has(collectionOf(route)) ? keys.own : keys.live;
    const path = route.pattern.includes(':id') ? fillAll(route, await objectFor(route, owner)) : fillAll(route, '');
    for (const key of [keys.live, liveRestricted]) {
      const reply = await send(route, path, { key });
      assertProblem(reply, 'permission_denied');
      assert.match(reply.body.detail, /sandbox/i, `${route.method} ${route.pattern}: ${reply.text}`);
    }
  }
});

for (const route of routes.filter((r) => !r.public)) {
  describe(`${route.method} ${route.pattern}`, () => {
    let path: string;
    before(async () => {
      path = await pathFor(route);
    });

    test('the 401 corpus: no key, wrong scheme, Basic, bare, malformed, bad checksum, unknown, revoked', async () => {
      const missing = await send(route, path);
      assertProblem(missing, 'api_key_missing', 'Authorization');
      const k = keys.own;
      const flipped = k.slice(0, -1) + (k.endsWith('A') ? 'B' : 'A');
      const corpus = [
        `Token ${k}`,
        `Basic ${Buffer.from(`${k}:`).toString('base64')}`,
        k,
        'Bearer sk_test_abc',
        `Bearer ${k} ${k}`,
        `Bearer ${flipped}`,
        `Bearer ${withChecksum(`sk_test_${'A'.repeat(32)}`)}`,
        `Bearer ${withChecksum(`sk_live_${'z'.repeat(32)}`)}`,
        `Bearer ${revoked}`,
      ];
      for (const authorization of corpus) {
        const reply = await send(route, path, { headers: { authorization } });
        assertProblem(reply, 'api_key_invalid', 'Authorization');
        assert.equal(reply.headers.get('www-authenticate'), 'Bearer realm="plinth"');
        assert.ok(!reply.text.includes(k.slice(8, 30)), 'the key is echoed');
      }
      assert.equal(await twoAuthorizations(route, path, [`Bearer ${k}`, `Bearer ${k}`]), 401, 'two Authorization');
    });

    for (const [who, key] of route.pattern.includes(':id') ? callers : []) {
      test(`another org's and another mode's object: 404, identical to an id that never existed (${who})`, async () => {
        const never = await objectFor(route, keys.own).then((id) => id.slice(0, -8) + 'ZZZZZZZZ');
        const shape = (r: Reply, id: string) => [
          r.status,
          r.text.replaceAll(r.headers.get('request-id')!, 'req').replaceAll(id, '<id>'),
        ];
        const expected = shape(await send(route, fillAll(route, never), { key }), never);
        assert.equal(expected[0], 404);
        const owners = SANDBOX_ONLY_OBJECTS.has(collectionOf(route)) ? [foreign] : [foreign, keys.live];
        for (const owner of owners) {
          const id = await objectFor(route, owner);
          assert.deepEqual(shape(await send(route, fillAll(route, id), { key }), id), expected);
        }
      });

      test(`oversized and malformed ids: 404 resource_not_found, after authentication (${who})`, async () => {
        const prefix = (await objectFor(route, keys.own)).split('_')[0]!;
        // The document states the shape (issue 23); an id that breaks it is still only "not found" (docs/api.md#the-wire).
        const documented = route.operation.parameters.find((p: any) => p.in === 'path' && p.name === 'id');
        assert.equal(documented.schema.pattern, idPattern(prefix));
        const ids = [`${prefix}_`, `${prefix}_${'A'.repeat(101)}`, `${prefix}_${'9'.repeat(5000)}`, `${prefix}_!'"<>`];
        for (const id of [...ids, 'x', '%00', '...', `${prefix}_é`, `${prefix}_01m81edf6ta6pey0wre961jvnb`]) {
          assert.doesNotMatch(decodeURIComponent(id), new RegExp(documented.schema.pattern, 'u'));
          assertProblem(await send(route, fillAll(route, id), { key }), 'resource_not_found');
          assertProblem(await send(route, fillAll(route, id)), 'api_key_missing');
        }
      });
    }
  });
}

for (const route of routes) {
  for (const [who, key] of route.public ? [['no key', undefined] as const] : callers)
    describe(`${route.method} ${route.pattern}: inputs it does not define (${who})`, () => {
      test('an unknown query parameter: 400 parameter_unknown', async () => {
        const path = await pathFor(route);
        assertProblem(await send(route, `${path}?not_a_parameter=1`, { key }), 'parameter_unknown', 'not_a_parameter');
      });

      if (route.method === 'POST') {
        test('an unknown field alone: parameter_unknown first, before any missing field (issue 30, finding 10)', async () => {
          const reply = await call(server.url, 'POST', await pathFor(route), { key, json: { not_a_field: 1 } });
          assertProblem(reply, 'parameter_unknown', 'not_a_field');
          assert.equal(reply.body.errors[0].param, 'not_a_field', reply.text);
        });

        test('a lone UTF-16 surrogate in any string of the body, or in a key: 400 naming it (issue 30, 5)', async () => {
          const path = await pathFor(route);
          const example = exampleBody(route) ?? {};
          const cases: [unknown, string][] = stringPaths(example).map((at) => [
            withSurrogate(example, at),
            at.join('.'),
          ]);
          cases.push([{ ...example, 'x\ud800': 'y' }, 'x\ufffd'], [{ ...example, z: ['\udfff'] }, 'z.0']);
          for (const [json, param] of cases) {
            const reply = await call(server.url, 'POST', path, { key, json });
            assertProblem(reply, 'parameter_invalid', param);
          }
        });

        test('mass assignment: server-owned fields in the body are 400 parameter_unknown', async () => {
          const path = await pathFor(route);
          const defined = resolve(route.operation.requestBody.content['application/json'].schema).properties ?? {};
          const owned = {
            id: 'acct_X',
            object: 'x',
            status: 'active',
            livemode: true,
            created_at: '2026-01-01T00:00Z',
          };
          const balances = { available_balance: { amount: 100, currency: 'USD' }, current_balance: 1, balance: 1 };
          for (const [field, value] of Object.entries({ ...owned, ...balances, org_id: 'org_X', revoked_at: null })) {
            if (field in defined) continue; // a field the operation takes is not mass assignment
            const json = { ...exampleBody(route), [field]: value };
            assertProblem(await call(server.url, 'POST', path, { key, json }), 'parameter_unknown', field);
          }
        });
      }
    });
}
