import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

const PATH = '/v1/fintech/accounts';
const JSON_TYPE = { 'content-type': 'application/json' };

function nested(depth: number): string {
  // depth 1 is the top-level object itself
  let value = '{}';
  for (let i = 2; i < depth; i++) value = `{"a":${value}}`;
  return `{"type":"business","country":"US","kyb":${value}}`;
}

describe('hostile bodies (docs/api.md#the-wire): the documented 4xx, never a 5xx, nothing stored', () => {
  const server = useServer();
  let key: string;
  const count = async (): Promise<number> =>
    (await call(server.url, 'GET', `${PATH}?limit=100`, { key })).body.data.length;
  const post = (raw: string | Uint8Array, headers: Record<string, string> = JSON_TYPE) =>
    call(server.url, 'POST', PATH, { key, raw, headers });

  before(async () => {
    key = await server.key('acme');
  });

  const cases: Array<[string, string | Uint8Array, string, Record<string, string>?]> = [
    ['duplicate keys', '{"type":"business","country":"US","country":"GB"}', 'body_malformed'],
    ['duplicate keys, one escaped', '{"type":"business","country":"US","c\\u006funtry":"GB"}', 'body_malformed'],
    [
      'duplicate nested keys',
      '{"type":"business","country":"US","kyb":{"ein":"12-3456789","ein":"12-3456789","legal_name":"A"}}',
      'body_malformed',
    ],
    ['__proto__ key', '{"type":"business","country":"US","__proto__":{"admin":true}}', 'body_malformed'],
    ['escaped __proto__ key', '{"type":"business","country":"US","\\u005f_proto__":{}}', 'body_malformed'],
    [
      'nested constructor key',
      '{"type":"business","country":"US","kyb":{"constructor":{"prototype":{}}}}',
      'body_malformed',
    ],
    ['constructor inside an array', '[{"constructor":1}]', 'body_malformed'],
    ['nesting 33 deep', nested(33), 'body_malformed'],
    ['array nesting 40 deep', `${'['.repeat(40)}${']'.repeat(40)}`, 'body_malformed'],
    [
      'invalid UTF-8',
      new Uint8Array([...Buffer.from('{"type":"business","country":"'), 0xc3, 0x28, ...Buffer.from('"}')]),
      'body_malformed',
    ],
    [
      'overlong UTF-8',
      new Uint8Array([...Buffer.from('{"type":"'), 0xc0, 0xaf, ...Buffer.from('"}')]),
      'body_malformed',
    ],
    ['raw NUL byte', '{"type":"business","country":"US"}\u0000', 'body_malformed'],
    ['escaped NUL in a value', '{"type":"business\\u0000","country":"US"}', 'body_malformed'],
    ['escaped NUL in a key', '{"type":"business","country":"US","a\\u0000":1}', 'body_malformed'],
    ['not JSON', 'type=business&country=US', 'body_malformed'],
    ['truncated JSON', '{"type":"business","country":"US"', 'body_malformed'],
    ['empty body', '', 'body_malformed'],
    ['JSON null', 'null', 'body_malformed'],
    ['trailing garbage', '{"type":"business","country":"US"} x', 'body_malformed'],
    ['over 64 KiB', JSON.stringify({ type: 'business', country: 'US', pad: 'x'.repeat(64 * 1024) }), 'body_too_large'],
    [
      'form media type',
      'type=business',
      'media_type_unsupported',
      { 'content-type': 'application/x-www-form-urlencoded' },
    ],
    ['text/plain', '{"type":"business","country":"US"}', 'media_type_unsupported', { 'content-type': 'text/plain' }],
    ['no content type', '{"type":"business","country":"US"}', 'media_type_unsupported', {}],
    [
      'JSON in latin1',
      '{"type":"business","country":"US"}',
      'media_type_unsupported',
      { 'content-type': 'application/json; charset=latin1' },
    ],
    [
      'a JSON look-alike type',
      '{"type":"business","country":"US"}',
      'media_type_unsupported',
      { 'content-type': 'application/json-patch+json' },
    ],
  ];
  for (const [name, raw, code, headers] of cases) {
    test(`${name} → ${code}`, async () => {
      const before = await count();
      assertProblem(await post(raw, headers), code as never);
      assert.equal(await count(), before);
    });
  }

  test('exactly 32 levels deep is accepted by the parser (and then judged by the schema)', async () => {
    const reply = await post(nested(32));
    // The unknown field first (issue 30, finding 10), then what is missing.
    assertProblem(reply, 'parameter_unknown', 'kyb.a');
    assert.ok(
      reply.body.errors.some(
        (e: { code: string; param: string }) => e.code === 'parameter_missing' && e.param === 'kyb.ein',
      ),
    );
  });

  test('application/json with charset=utf-8, in any case, is fine', async () => {
    for (const contentType of [
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'Application/JSON',
    ]) {
      const reply = await post('{"type":"business","country":"US"}', { 'content-type': contentType });
      assert.equal(reply.status, 200, `${contentType}: ${reply.text}`);
    }
  });

  test('a body just under 64 KiB is parsed', async () => {
    const body = JSON.stringify({ type: 'business', country: 'US', pad: '' });
    const padded = body.replace('"pad":""', `"pad":"${'x'.repeat(64 * 1024 - body.length)}"`);
    assert.equal(Buffer.byteLength(padded), 64 * 1024);
    assertProblem(await post(padded), 'parameter_unknown', 'pad');
  });

  test('property: arbitrary bytes as a JSON body never give a 5xx and never create an account', async () => {
    const before = await count();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        const reply = await post(bytes);
        return reply.status >= 400 && reply.status < 500;
      }),
      { numRuns: 150 },
    );
    await fc.assert(
      fc.asyncProperty(fc.json({ depthSize: 'medium' }), async (text) => {
        const reply = await post(text);
        return reply.status < 500 && reply.status !== 200;
      }),
      { numRuns: 150 },
    );
    assert.equal(await count(), before);
  });
});
