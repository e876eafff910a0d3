/**
 * The SDK view keeps its promises on the real document, whatever operations are added later: nothing a response
 * can reach is closed (enums, additionalProperties: false, patterns), inline objects have names, nullable ones stay
 * nullable in both versions; and the rewriting proxy of `npm run test:clients` rewrites what it says it does (its
 * event-stream messages too: data over two lines whose join is the same JSON).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { reshapeEvent, rewrite } from '../../scripts/clients/rewriting-proxy.ts';
import { sdkView, toOpenApi30 } from '../../scripts/clients/sdk-view.ts';

type Obj = Record<string, any>;
const ROOT = join(import.meta.dirname, '../..');
const source = JSON.parse(readFileSync(join(ROOT, 'openapi/openapi.json'), 'utf8')) as Obj;
const view = sdkView(source) as Obj;
const view30 = toOpenApi30(view) as Obj;

/** Every schema object reachable from the responses of a document, following $refs. */
function responseSchemas(doc: Obj): Obj[] {
  const found = new Set<Obj>();
  const visit = (schema: Obj | undefined) => {
    if (!schema || typeof schema !== 'object' || found.has(schema)) return;
    found.add(schema);
    if (typeof schema.$ref === 'string') visit(doc.components.schemas[schema.$ref.split('/').at(-1)!]);
    for (const child of Object.values(schema.properties ?? {})) visit(child as Obj);
    for (const key of ['items', 'additionalProperties']) if (typeof schema[key] === 'object') visit(schema[key]);
    for (const key of ['allOf', 'anyOf', 'oneOf']) for (const child of schema[key] ?? []) visit(child);
  };
  for (const item of Object.values(doc.paths) as Obj[]) {
    for (const op of Object.values(item) as Obj[]) {
      for (const response of Object.values(op.responses ?? {}) as Obj[]) {
        for (const media of Object.values(response.content ?? {}) as Obj[]) visit(media.schema);
      }
    }
  }
  return [...found];
}

describe('the SDK view', () => {
  test('the server document itself is left strict', () => {
    assert.ok(source.components.schemas.Problem.properties.code.enum.length > 0);
    assert.equal(source.components.schemas.Account.additionalProperties, false);
  });

  for (const [name, doc] of [
    ['3.1', view],
    ['3.0.3', view30],
  ] as const) {
    test(`${name}: nothing a response reaches is closed`, () => {
      const schemas = responseSchemas(doc);
      assert.ok(schemas.length > 10);
      for (const schema of schemas) {
        assert.equal(schema.enum, undefined, JSON.stringify(schema));
        assert.equal(schema.const, undefined, JSON.stringify(schema));
        assert.equal(schema.pattern, undefined, JSON.stringify(schema));
        assert.notEqual(schema.additionalProperties, false, JSON.stringify(schema));
      }
    });
  }

  test('error codes are open strings that still list the known values', () => {
    const code = view.components.schemas.Problem.properties.code;
    assert.equal(code.type, 'string');
    assert.ok(code['x-enum-values'].includes('idempotency_key_reused'));
    assert.match(code.description, /idempotency_key_reused/);
    const itemCode = view.components.schemas.ProblemErrorsItem.properties.code;
    assert.deepEqual(itemCode['x-enum-values'], code['x-enum-values']);
  });

  test('the nullable inline kyb is a named component, nullable in both versions', () => {
    assert.deepEqual(view.components.schemas.Account.properties.kyb.anyOf, [
      { $ref: '#/components/schemas/AccountKyb' },
      { type: 'null' },
    ]);
    assert.equal(view.components.schemas.AccountKyb.type, 'object');
    const kyb30 = view30.components.schemas.Account.properties.kyb;
    assert.deepEqual(kyb30.allOf, [{ $ref: '#/components/schemas/AccountKyb' }]);
    assert.equal(kyb30.nullable, true);
    assert.equal(kyb30.type, 'object');
  });

  test('3.0.3 has no 3.1-only constructs left', () => {
    const text = JSON.stringify(view30);
    assert.equal(view30.openapi, '3.0.3');
    assert.doesNotMatch(text, /"type":\[/);
    assert.doesNotMatch(text, /"type":"null"/);
    assert.equal(view30.components.schemas.ApiKey.properties.revoked_at.nullable, true);
  });

  test('requests keep their checks, and pages that are not JSON are left out', () => {
    const body = view.components.schemas.CreateAccountRequest;
    assert.equal(body.additionalProperties, false);
    assert.deepEqual(body.properties.type.enum, ['business']);
    assert.ok(view.components.schemas.CreateAccountRequestKyb.properties.ein.pattern);
    assert.equal(view.paths['/docs'], undefined);
    assert.ok(view.paths['/v1/fintech/accounts'].post);
  });

  test('the event types a webhook endpoint subscribes to are open strings in requests too', () => {
    for (const name of ['CreateWebhookEndpointRequest', 'UpdateWebhookEndpointRequest']) {
      const events = view.components.schemas[name].properties.enabled_events;
      assert.equal(events.uniqueItems, true);
      assert.equal(events.items.enum, undefined, name);
      assert.ok(events.items['x-enum-values'].includes('webhook_endpoint.test'), name);
    }
  });

  test('a property of several object shapes is one object of all their fields, none required', () => {
    // Kotlin's and Rust's generators made a union into one class with every field required: no request fitted.
    const property = view.components.schemas.CreatePaymentRuleRequest.properties.action;
    assert.equal(property.$ref, '#/components/schemas/CreatePaymentRuleRequestAction');
    const action = view.components.schemas.CreatePaymentRuleRequestAction;
    assert.deepEqual(Object.keys(action.properties), ['return', 'at', 'reject']);
    assert.equal(action.required, undefined);
    assert.equal(action.additionalProperties, false, 'a request: still closed');
    assert.equal(view.components.schemas.CreatePaymentRuleRequestActionAnyOf0, undefined);
    for (const doc of [view, view30])
      for (const [name, schema] of Object.entries<Obj>(doc.components.schemas))
        for (const [field, value] of Object.entries<Obj>(schema.properties ?? {}))
          assert.ok(
            !(value.anyOf ?? []).every((v: Obj) => v.$ref) || (value.anyOf ?? []).length < 2,
            `${name}.${field}`,
          );
  });

  test('a boolean of one allowed value is a plain boolean that says so', () => {
    // Kotlin's generator made an enum class of Boolean with an Int default, which did not compile.
    const reject = view.components.schemas.CreatePaymentRuleRequestAction.properties.reject;
    assert.equal(reject.type, 'boolean');
    assert.equal(reject.enum, undefined);
    assert.equal(reject.const, undefined);
    assert.match(reject.description, /Only `true` is accepted/);
    const reject30 = view30.components.schemas.CreatePaymentRuleRequestAction.properties.reject;
    assert.equal(reject30.enum, undefined);
  });
});

describe("Python's view: times as date-times", () => {
  // clients/python/client.json asks for it ("instants": "date-time"), so that `account.created_at` is a datetime.
  const instants = sdkView(source, { instants: true }) as Obj;
  /** Every response property of the server's document whose pattern is a time the API writes, by schema. */
  const times = Object.entries(source.components.schemas as Obj).flatMap(([name, schema]) =>
    Object.entries((schema as Obj).properties ?? {})
      .filter(([, property]) => String((property as Obj).pattern ?? '').startsWith('^\\d{4}-\\d{2}-\\d{2}T'))
      .map(([property]) => [name, property] as const),
  );

  test('every time a response carries is format: date-time there, and only there', () => {
    assert.ok(times.length >= 20, `times found: ${times.length}`);
    for (const [name, property] of times)
      assert.equal(instants.components.schemas[name].properties[property].format, 'date-time', `${name}.${property}`);
    const attempt = instants.components.schemas.WebhookDeliveryAttemptsItem.properties.attempted_at;
    assert.equal(attempt.format, 'date-time', 'a time inside a named inline object too');
    const marked = responseSchemas(instants).filter((schema) => schema.format === 'date-time');
    assert.equal(marked.length, times.length + 1);
    assert.equal(instants.components.schemas.Account.properties.closed_at.type.join(), 'string,null');
  });

  test('the shared view, the one every other language reads, has no date-time', () => {
    assert.equal(JSON.stringify(view).includes('"date-time"'), false);
    assert.equal(readFileSync(join(ROOT, 'clients/openapi.sdk.json'), 'utf8').includes('"date-time"'), false);
  });
});

describe('the rewriting proxy', () => {
  test('adds a field everywhere but metadata, turns active into dormant, and error codes into an unknown one', () => {
    const future = { future_field: { nested: true } };
    const account = { id: 'a', status: 'active', kyb: null, metadata: { status: 'active' } };
    assert.deepEqual(rewrite({ object: 'list', data: [account] }, false), {
      object: 'list',
      data: [{ id: 'a', status: 'dormant', kyb: null, metadata: { status: 'active' }, ...future }],
      ...future,
    });
    assert.deepEqual(
      rewrite({ status: 404, code: 'resource_not_found', errors: [{ code: 'resource_not_found' }] }, true),
      {
        status: 404,
        code: 'future_error_code',
        errors: [{ code: 'future_error_code', ...future }],
        ...future,
      },
    );
  });

  test("splits an event stream message's data over two lines, after a comment and a retry field", () => {
    const data = '{"id":"evt_1","object":"event","sequence":7}';
    const reshaped = reshapeEvent(`id: 7\nevent: fintech.account.created\ndata: ${data}`);
    const lines = reshaped.split('\n');
    assert.deepEqual(lines.slice(0, 4), [
      ': a future server on a flaky network',
      'retry: 100',
      'id: 7',
      'event: fintech.account.created',
    ]);
    const dataLines = lines.filter((line) => line.startsWith('data: '));
    assert.equal(dataLines.length, 2);
    const joined = dataLines.map((line) => line.slice('data: '.length)).join('\n');
    assert.deepEqual(JSON.parse(joined), JSON.parse(data));
  });
});
