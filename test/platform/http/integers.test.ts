import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

/**
 * An integer field decides on the JSON token, not on the number JSON.parse makes of it (issue 23, finding 4):
 * a token with a fraction or an exponent is refused, whatever it rounds to. Written as the client sends them.
 */
const NOT_INTEGERS = [
  '0.99999999999999999',
  '1.00000000000000001',
  '100.0000000000000000001',
  '1.0',
  '1e2',
  '1E2',
  '2.5e1',
  '-1.0',
];

describe('integer fields take integer tokens only (issue 23, finding 4)', () => {
  const server = useServer();
  let key: string;
  before(async () => {
    key = await server.key('integers');
  });

  const post = (path: string, raw: string) =>
    call(server.url, 'POST', path, { key, raw, headers: { 'content-type': 'application/json' } });

  test('amounts of transfers, deposits and withdrawals: refused, naming the field, and nothing moves', async () => {
    const bank = money(server.url, key);
    const [from, to] = [await bank.account(), await bank.account()];
    await bank.deposit(from, 500);
    for (const token of NOT_INTEGERS) {
      const transfer = `{"from_account_id":"${from}","to_account_id":"${to}","amount":${token},"currency":"USD"}`;
      assertProblem(await post('/v1/fintech/transfers', transfer), 'parameter_invalid', 'amount');
      for (const kind of ['deposits', 'withdrawals'])
        assertProblem(
          await post(`/v1/sandbox/fintech/accounts/${from}/${kind}`, `{"amount":${token}}`),
          'parameter_invalid',
          'amount',
        );
    }
    assert.equal(await bank.balance(from), 500);
    assert.equal(await bank.balance(to), 0);
    const reply = await post(`/v1/sandbox/fintech/accounts/${from}/deposits`, '{"amount":1.00000000000000001}');
    assert.match(reply.body.detail, /^amount must be a whole number written without a fraction or an exponent/);
  });

  test('plain integer tokens still pass, and a fraction in a string field is still a wrong type', async () => {
    const bank = money(server.url, key);
    const account = await bank.account();
    assert.equal((await post(`/v1/sandbox/fintech/accounts/${account}/deposits`, '{"amount":100}')).status, 200);
    assert.equal(await bank.balance(account), 100);
    assertProblem(
      await post('/v1/fintech/accounts', '{"type":"business","country":1.0}'),
      'parameter_invalid',
      'country',
    );
  });

  test('every integer field of every request body in the OpenAPI document', async () => {
    const document = server.app.swagger() as any;
    const resolve = (schema: any): any =>
      schema?.$ref ? document.components.schemas[schema.$ref.split('/').at(-1)] : schema;
    /** Dotted paths of the integer properties of an object schema, nested objects included. */
    const integers = (schema: any, prefix: string[] = []): string[][] =>
      Object.entries<any>(resolve(schema)?.properties ?? {}).flatMap(([name, property]) => {
        const p = resolve(property);
        const types = [p.type].flat();
        if (types.includes('integer')) return [[...prefix, name]];
        return types.includes('object') ? integers(p, [...prefix, name]) : [];
      });
    const found: string[] = [];
    for (const [path, operations] of Object.entries<any>(document.paths)) {
      const body = operations.post?.requestBody?.content['application/json']?.schema;
      if (body === undefined) continue;
      for (const field of integers(body)) {
        found.push(`${path} ${field.join('.')}`);
        const url = path.replace(/\{\w+\}/g, 'x_unknown');
        for (const token of ['1.00000000000000001', '1e0']) {
          const raw = field.reduceRight((inner, name) => `{"${name}":${inner}}`, token);
          const reply = await post(url, raw);
          assert.equal(reply.status, 400, `${path} ${raw}: ${reply.text}`);
          const items = reply.body.errors ?? [];
          assert.ok(
            items.some((e: any) => e.code === 'parameter_invalid' && e.param === field.join('.')),
            `${path} ${raw}: ${reply.text}`,
          );
        }
      }
    }
    // The inventory is the document's: at least the amounts and the secret's expiry must have been found.
    for (const expected of [
      '/v1/fintech/transfers amount',
      '/v1/sandbox/fintech/accounts/{id}/deposits amount',
      '/v1/webhook_endpoints/{id}/rotate_secret expire_previous_in_seconds',
    ])
      assert.ok(found.includes(expected), `${expected} in ${found.join(', ')}`);
  });
});
