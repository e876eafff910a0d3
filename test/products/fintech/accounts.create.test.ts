import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

const PATH = '/v1/fintech/accounts';

describe('POST /v1/fintech/accounts', () => {
  const server = useServer({ SUPPORTED_COUNTRIES: 'US,GB,DE,JP' });
  let key: string;
  const create = (json: unknown, k = key) => call(server.url, 'POST', PATH, { key: k, json });
  const count = async (): Promise<number> =>
    (await call(server.url, 'GET', `${PATH}?limit=100`, { key })).body.data.length;

  before(async () => {
    key = await server.key('acme');
  });

  test('seed rules 1–3: a minimal request gives 200, an active account, zero balance', async () => {
    const reply = await create({ type: 'business', country: 'US' });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('content-type')!, /^application\/json/);
    const account = reply.body;
    assert.match(account.id, /^acct_[0-9A-Z]{26}$/);
    assert.equal(account.object, 'fintech.account');
    assert.equal(account.type, 'business');
    assert.equal(account.country, 'US');
    assert.equal(account.status, 'active');
    assert.deepEqual(account.available_balance, { amount: 0, currency: 'USD' });
    assert.deepEqual(account.current_balance, { amount: 0, currency: 'USD' });
    assert.equal(account.status_details, null);
    assert.equal(account.closed_at, null);
    assert.equal(account.kyb, null);
    assert.equal(account.livemode, false);
    assert.match(account.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);
    assert.ok(Math.abs(Date.parse(account.created_at) - Date.now()) < 120_000, 'created_at is now, in UTC');
    assert.deepEqual(Object.keys(account).sort(), [
      'available_balance',
      'closed_at',
      'country',
      'created_at',
      'current_balance',
      'id',
      'kyb',
      'livemode',
      'metadata',
      'nickname',
      'object',
      'status',
      'status_details',
      'type',
    ]);
  });

  test('kyb is echoed with only the last four EIN digits; legal_name is trimmed', async () => {
    const reply = await create({
      type: 'business',
      country: 'US',
      kyb: { ein: '12-3456789', legal_name: '  Acme Corp  ' },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body.kyb, { legal_name: 'Acme Corp', ein_last4: '6789' });
    assert.doesNotMatch(reply.text, /12-3456789|123456789/);
  });

  test("the currency is the country's, with its own minor unit", async () => {
    for (const [country, currency] of [
      ['GB', 'GBP'],
      ['DE', 'EUR'],
      ['JP', 'JPY'],
    ] as const) {
      const reply = await create({ type: 'business', country });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.body.available_balance, { amount: 0, currency });
    }
  });

  test('ids are unique and increase in creation order', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await create({ type: 'business', country: 'US' })).body.id);
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, ids.length);
  });

  const invalid: Array<[string, unknown, string, string]> = [
    ['type missing', { country: 'US' }, 'parameter_missing', 'type'],
    ['country missing', { type: 'business' }, 'parameter_missing', 'country'],
    ['unknown type', { type: 'personal', country: 'US' }, 'parameter_invalid', 'type'],
    ['type not a string', { type: 1, country: 'US' }, 'parameter_invalid', 'type'],
    ['country lowercase', { type: 'business', country: 'us' }, 'parameter_invalid', 'country'],
    ['country alpha-3', { type: 'business', country: 'USA' }, 'parameter_invalid', 'country'],
    ['country not real', { type: 'business', country: 'ZZ' }, 'parameter_invalid', 'country'],
    ['country user-assigned', { type: 'business', country: 'XK' }, 'parameter_invalid', 'country'],
    ['country a number', { type: 'business', country: 12 }, 'parameter_invalid', 'country'],
    ['country real but not served', { type: 'business', country: 'BR' }, 'country_unsupported', 'country'],
    [
      'kyb without ein',
      { type: 'business', country: 'US', kyb: { legal_name: 'Acme' } },
      'parameter_missing',
      'kyb.ein',
    ],
    [
      'kyb without legal_name',
      { type: 'business', country: 'US', kyb: { ein: '12-3456789' } },
      'parameter_missing',
      'kyb.legal_name',
    ],
    ['kyb a string', { type: 'business', country: 'US', kyb: 'Acme' }, 'parameter_invalid', 'kyb'],
    [
      'ein without dash',
      { type: 'business', country: 'US', kyb: { ein: '123456789', legal_name: 'Acme' } },
      'parameter_invalid',
      'kyb.ein',
    ],
    [
      'ein with non-ASCII digits',
      { type: 'business', country: 'US', kyb: { ein: '١٢-3456789', legal_name: 'Acme' } },
      'parameter_invalid',
      'kyb.ein',
    ],
    [
      'ein never-issued prefix',
      { type: 'business', country: 'US', kyb: { ein: '07-3456789', legal_name: 'Acme' } },
      'parameter_invalid',
      'kyb.ein',
    ],
    [
      'legal_name blank',
      { type: 'business', country: 'US', kyb: { ein: '12-3456789', legal_name: '   ' } },
      'parameter_invalid',
      'kyb.legal_name',
    ],
    [
      'legal_name 201 characters',
      { type: 'business', country: 'US', kyb: { ein: '12-3456789', legal_name: 'x'.repeat(201) } },
      'parameter_invalid',
      'kyb.legal_name',
    ],
    [
      'legal_name control character',
      { type: 'business', country: 'US', kyb: { ein: '12-3456789', legal_name: 'Acme\u0007' } },
      'parameter_invalid',
      'kyb.legal_name',
    ],
    [
      'legal_name lone surrogate',
      { type: 'business', country: 'US', kyb: { ein: '12-3456789', legal_name: 'Acme\ud800' } },
      'parameter_invalid',
      'kyb.legal_name',
    ],
    ['unknown top-level field', { type: 'business', country: 'US', balance: 100 }, 'parameter_unknown', 'balance'],
    [
      'unknown nested field',
      { type: 'business', country: 'US', kyb: { ein: '12-3456789', legal_name: 'Acme', ssn: 'x' } },
      'parameter_unknown',
      'kyb.ssn',
    ],
    ['body an array', [{ type: 'business', country: 'US' }], 'body_malformed', ''],
    ['body a string', 'business', 'body_malformed', ''],
  ];
  for (const [name, body, code, param] of invalid) {
    test(`${name} → ${code}, nothing stored`, async () => {
      const before = await count();
      const reply = await create(body);
      assertProblem(reply, code as never, param === '' ? undefined : param);
      assert.equal(await count(), before);
    });
  }

  test('a legal name of exactly 200 characters after trimming is accepted', async () => {
    const reply = await create({
      type: 'business',
      country: 'US',
      kyb: { ein: '12-3456789', legal_name: ` ${'é'.repeat(200)} ` },
    });
    assert.equal(reply.status, 200, reply.text);
  });

  test('several problems are all listed; the first is named', async () => {
    const reply = await create({ country: 'us', extra: true, kyb: { ein: 'x' } });
    assertProblem(reply, reply.body.code);
    const params = reply.body.errors.map((e: { param: string }) => e.param).sort();
    assert.deepEqual(params, ['country', 'extra', 'kyb.ein', 'kyb.legal_name', 'type']);
    assert.equal(reply.body.param, reply.body.errors[0].param);
    assert.equal(reply.body.code, reply.body.errors[0].code);
  });

  test('the error example of the contract: an EIN of the wrong shape says what it should look like', async () => {
    const reply = await create({ type: 'business', country: 'US', kyb: { ein: '12345', legal_name: 'Acme' } });
    assertProblem(reply, 'parameter_invalid', 'kyb.ein');
    assert.equal(reply.body.detail, 'kyb.ein must look like 12-3456789.');
  });
});
