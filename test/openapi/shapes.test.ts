/**
 * Rules that lived in prose are in the document's schemas (issue 23, finding 9), and the server's answers are the
 * contract's still: a free text's rule is a pattern the server enforces with the same words as before; an id's shape
 * is a pattern the server does not refuse for (an id of another shape names nothing: 404, or 400 for a cursor);
 * the examples are ones the server accepts; and the SDK view leaves out the patterns no client should check.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sdkView } from '../../scripts/clients/sdk-view.ts';
import { idPattern } from '../../src/platform/kit/ids.ts';
import { cleanTextRule, freeTextPattern } from '../../src/platform/kit/text.ts';
import { DOCUMENT } from '../helpers/openapi.ts';
import { assertProblem } from '../helpers/problem.ts';
import { call, startServer, type TestServer } from '../helpers/server.ts';

type Obj = Record<string, any>;
const ref = (schema: Obj): Obj => (schema.$ref ? DOCUMENT.components.schemas[schema.$ref.split('/').at(-1)] : schema);
const body = (path: string, method = 'post'): Obj =>
  ref(DOCUMENT.paths[path][method].requestBody.content['application/json'].schema);
const parameter = (path: string, name: string, method = 'get'): Obj =>
  DOCUMENT.paths[path][method].parameters.find((p: Obj) => p.name === name);

// Every free text a request takes, with its limit in characters after trimming (docs/api.md#free-text-ids-and-what-the-openapi-document-states).
const FREE_TEXT: [string, string, (b: Obj) => Obj, number][] = [
  ['/v1/sandbox/signup', 'name', (b) => b.properties.name, 100],
  ['/v1/api_keys', 'name', (b) => b.properties.name, 100],
  ['/v1/fintech/accounts', 'kyb.legal_name', (b) => b.properties.kyb.properties.legal_name, 200],
  ['/v1/fintech/accounts/{id}/freeze', 'note', (b) => b.properties.note, 500],
  ['/v1/fintech/accounts/{id}/close', 'note', (b) => b.properties.note, 500],
  ['/v1/fintech/transfers', 'description', (b) => b.properties.description, 200],
  ['/v1/sandbox/fintech/accounts/{id}/deposits', 'description', (b) => b.properties.description, 200],
  ['/v1/sandbox/fintech/accounts/{id}/withdrawals', 'description', (b) => b.properties.description, 200],
  ['/v1/webhook_endpoints', 'description', (b) => b.properties.description, 500],
  ['/v1/webhook_endpoints/{id}', 'description', (b) => b.properties.description, 500],
];

// Every list and the kind of id its cursors name.
const LISTS: [string, string][] = [
  ['/v1/fintech/accounts', 'acct'],
  ['/v1/fintech/transfers', 'tr'],
  ['/v1/fintech/accounts/{id}/transactions', 'txn'],
  ['/v1/api_keys', 'key'],
  ['/v1/events', 'evt'],
  ['/v1/events/{id}/deliveries', 'whd'],
  ['/v1/webhook_endpoints', 'we'],
  ['/v1/webhook_endpoints/{id}/deliveries', 'whd'],
];

describe('the document states what the server checks', () => {
  test('every free text has the pattern of its rule, and no maxLength (the limit counts after trimming)', () => {
    for (const [path, name, at, max] of FREE_TEXT) {
      const schema = at(body(path));
      assert.equal(schema.pattern, freeTextPattern(max), `${path} ${name}`);
      assert.equal(schema.maxLength, undefined, `${path} ${name}`);
      assert.match(schema.description, new RegExp(`1–${max} characters after trimming`), `${path} ${name}`);
    }
  });

  test('every cursor, path id and body id has the pattern of its kind', () => {
    for (const [path, kind] of LISTS)
      for (const name of ['starting_after', 'ending_before'])
        assert.equal(parameter(path, name).schema.pattern, idPattern(kind), `${path} ${name}`);
    for (const [path, item] of Object.entries<Obj>(DOCUMENT.paths))
      for (const [method, op] of Object.entries<Obj>(item))
        for (const p of op.parameters ?? [])
          if (p.in === 'path')
            assert.match(p.schema.pattern ?? '', /^\^[a-z]+_\[0-9A-HJKMNP-TV-Z\]\{26\}\$$/, `${method} ${path}`);
    const transfer = body('/v1/fintech/transfers');
    for (const side of ['from_account_id', 'to_account_id'])
      assert.equal(transfer.properties[side].pattern, idPattern('acct'), side);
    assert.equal(parameter('/v1/fintech/transfers', 'account_id').schema.pattern, idPattern('acct'));
  });

  test('examples the server would accept: a transfer between two accounts, a new account holding nothing', () => {
    const transfer = DOCUMENT.paths['/v1/fintech/transfers'].post.requestBody.content['application/json'];
    assert.notEqual(transfer.example.from_account_id, transfer.example.to_account_id);
    // Examples are also combined field by field (Schemathesis does): each side has one of its own.
    const [from] = body('/v1/fintech/transfers').properties.from_account_id.examples;
    const [to] = body('/v1/fintech/transfers').properties.to_account_id.examples;
    assert.notEqual(from, to);
    const created = DOCUMENT.paths['/v1/fintech/accounts'].post.responses['200'].content['application/json'].example;
    assert.equal(created.available_balance.amount, 0);
    assert.equal(created.current_balance.amount, 0);
  });

  test('the Idempotency-Key has no example: one shown key would make every request after the first a reuse', () => {
    const key = DOCUMENT.components.parameters['Idempotency-Key'];
    assert.equal(key.example, undefined);
    assert.equal(key.examples, undefined);
    assert.equal(key.schema.examples, undefined);
  });

  test('the SDK view leaves out id and free-text patterns, and keeps the others', () => {
    const view = sdkView(DOCUMENT) as Obj;
    const patterns: string[] = [];
    const visit = (node: unknown) => {
      if (node === null || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k === 'pattern' && typeof v === 'string') patterns.push(v);
        else visit(v);
      }
    };
    visit(view.paths);
    visit(view.components);
    assert.ok(patterns.length > 0);
    for (const pattern of patterns) {
      assert.doesNotMatch(pattern, /_\[0-9A-HJKMNP-TV-Z\]\{26\}/, 'an id pattern');
      assert.match(pattern, /^[\x20-\x7e]*$/, 'printable ASCII');
      assert.doesNotMatch(pattern, /\\u/, 'a \\u escape');
    }
    assert.ok(view.components.schemas.CreateAccountRequestKyb.properties.ein.pattern, 'the EIN keeps its pattern');
  });
});

describe('the server answers as the contract says, whatever the document states', () => {
  let server: TestServer;
  let key: string;
  let account: string;
  before(async () => {
    server = await startServer();
    key = await server.key('shapes');
    account = (
      await call(server.url, 'POST', '/v1/fintech/accounts', { key, json: { type: 'business', country: 'US' } })
    ).body.id;
  });
  after(() => server.close());
  const post = (path: string, json: unknown) => call(server.url, 'POST', path, { key, json });

  test('free text: max characters after trimming pass, padded or not; more, or an invisible one, is 400 in words', async () => {
    const cases: [string, (text: string) => unknown, string, number][] = [
      ['/v1/api_keys', (text) => ({ name: text }), 'name', 100],
      [
        '/v1/fintech/accounts',
        (text) => ({ type: 'business', country: 'US', kyb: { ein: '12-3456789', legal_name: text } }),
        'kyb.legal_name',
        200,
      ],
      [
        `/v1/sandbox/fintech/accounts/${account}/deposits`,
        (text) => ({ amount: 1, description: text }),
        'description',
        200,
      ],
    ];
    for (const [path, json, param, max] of cases) {
      const stored = await post(path, json(`  ${'n'.repeat(max)}\u3000`));
      assert.equal(stored.status, 200, stored.text);
      for (const bad of ['n'.repeat(max + 1), 'a\u200bb', ' \u202e ', '', 'x\ud800']) {
        const reply = await post(path, json(bad));
        assertProblem(reply, 'parameter_invalid', param);
        // A lone surrogate is refused by the rule for every string (docs/api.md, the wire), before this one.
        if (bad.isWellFormed()) assert.equal(reply.body.detail, cleanTextRule(param, max), `${param}: ${bad}`);
        else assert.match(reply.body.detail, /lone UTF-16 surrogate/);
      }
    }
    const frozen = await post(`/v1/fintech/accounts/${account}/freeze`, {
      reason: 'other',
      note: ` ${'n'.repeat(500)} `,
    });
    assert.equal(frozen.body.status_details.note, 'n'.repeat(500), 'a note is stored trimmed');
    assertProblem(await post(`/v1/fintech/accounts/${account}/unfreeze`, { note: 'x' }), 'parameter_unknown', 'note');
    assertProblem(
      await post(`/v1/fintech/accounts/${account}/close`, { note: 'line\nbreak' }),
      'parameter_invalid',
      'note',
    );
  });

  test('a cursor of another shape or kind is refused as an unseen one: 400, same words, its own param', async () => {
    const unseen = 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV';
    const expected = await call(server.url, 'GET', `/v1/fintech/accounts?starting_after=${unseen}`, { key });
    assertProblem(expected, 'parameter_invalid', 'starting_after');
    for (const cursor of ['x', 'acct_short', 'tr_01M7Z25FCR5ZY0JCJ80M91V6XV', unseen.toLowerCase(), '']) {
      for (const name of ['starting_after', 'ending_before']) {
        const reply = await call(server.url, 'GET', `/v1/fintech/accounts?${name}=${cursor}`, { key });
        assertProblem(reply, 'parameter_invalid', name);
        assert.equal(reply.body.detail, expected.body.detail.replace('starting_after', name));
      }
    }
    const both = await call(
      server.url,
      'GET',
      `/v1/fintech/accounts?starting_after=${account}&ending_before=${account}`,
      {
        key,
      },
    );
    assertProblem(both, 'parameter_invalid', 'ending_before');
  });

  test('a body or query id of another shape names no account: 404 with its param, as one that does not exist', async () => {
    for (const id of ['acct_short', 'x', `${account.toLowerCase()}`, 'tr_01M7Z25FCR5ZY0JCJ80M91V6XV']) {
      const transfer = { from_account_id: id, to_account_id: account, amount: 1, currency: 'USD' };
      assertProblem(await post('/v1/fintech/transfers', transfer), 'resource_not_found', 'from_account_id');
      const reversed = { ...transfer, from_account_id: account, to_account_id: id };
      assertProblem(await post('/v1/fintech/transfers', reversed), 'resource_not_found', 'to_account_id');
      const listed = await call(server.url, 'GET', `/v1/fintech/transfers?account_id=${encodeURIComponent(id)}`, {
        key,
      });
      assertProblem(listed, 'resource_not_found', 'account_id');
    }
    const same = { from_account_id: account, to_account_id: account, amount: 1, currency: 'USD' };
    assertProblem(await post('/v1/fintech/transfers', same), 'parameter_invalid', 'to_account_id');
  });

  test('country and EIN: the patterns list the real countries and issued prefixes, the answers are unchanged', async () => {
    const country = body('/v1/fintech/accounts').properties.country.pattern;
    const ein = body('/v1/fintech/accounts').properties.kyb.properties.ein.pattern;
    for (const [value, ok] of [
      ['US', true],
      ['ZZ', false],
      ['XK', false],
      ['us', false],
      ['AA', false],
    ] as const)
      assert.equal(new RegExp(country, 'u').test(value), ok, value);
    for (const [value, ok] of [
      ['12-3456789', true],
      ['00-1234567', false],
      ['97-1234567', false],
      ['98-1234567', true],
    ] as const)
      assert.equal(new RegExp(ein, 'u').test(value), ok, value);
    assertProblem(
      await post('/v1/fintech/accounts', { type: 'business', country: 'ZZ' }),
      'parameter_invalid',
      'country',
    );
    const never = { type: 'business', country: 'US', kyb: { ein: '00-1234567', legal_name: 'Acme' } };
    assertProblem(await post('/v1/fintech/accounts', never), 'parameter_invalid', 'kyb.ein');
    assertProblem(
      await post('/v1/fintech/accounts', { type: 'business', country: 'JP' }),
      'country_unsupported',
      'country',
    );
  });
});
