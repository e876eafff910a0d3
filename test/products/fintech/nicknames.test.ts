/**
 * Account nicknames (docs/api.md#fintech-accounts): a label for people, set at creation or by the account update,
 * cleared with "", checked as free text; the update takes metadata, a nickname or both, and nothing else.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

const ACCOUNTS = '/v1/fintech/accounts';
const FREE_TEXT = /nickname must be 1–100 characters after trimming, without control, invisible or direction-changing/;

describe(`account nicknames (${BACKEND})`, () => {
  const server = useServer();

  async function client(org: string) {
    const key = await server.key(org);
    const post = (path: string, json: unknown) => call(server.url, 'POST', path, { key, json });
    return { post, m: money(server.url, key) };
  }

  test('set at creation (trimmed), changed, cleared with ""; null when none; shown by retrieve and list', async () => {
    const { post, m } = await client('nick-life');
    const plain = await post(ACCOUNTS, { type: 'business', country: 'US' });
    assert.equal(plain.body.nickname, null);
    const named = await post(ACCOUNTS, { type: 'business', country: 'US', nickname: '  Payroll  ' });
    assert.equal(named.status, 200, named.text);
    assert.equal(named.body.nickname, 'Payroll');
    const id = named.body.id;
    const renamed = await post(`${ACCOUNTS}/${id}`, { nickname: 'Suppliers – 🇬🇧' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.nickname, 'Suppliers – 🇬🇧');
    assert.equal((await m.get(`${ACCOUNTS}/${id}`)).nickname, 'Suppliers – 🇬🇧');
    const both = await post(`${ACCOUNTS}/${id}`, { nickname: 'Ops', metadata: { team: 'ops' } });
    assert.deepEqual([both.body.nickname, both.body.metadata], ['Ops', { team: 'ops' }]);
    const cleared = await post(`${ACCOUNTS}/${id}`, { nickname: '' });
    assert.equal(cleared.body.nickname, null);
    assert.deepEqual(cleared.body.metadata, { team: 'ops' }, 'the metadata stays');
    const list = await m.get(ACCOUNTS);
    assert.deepEqual(
      list.data.map((a: { nickname: string | null }) => a.nickname),
      [null, null],
    );
  });

  test('a nickname that is not clean free text is refused, naming nickname, at creation and in the update', async () => {
    const { post } = await client('nick-invalid');
    const id = (await post(ACCOUNTS, { type: 'business', country: 'US', nickname: 'Payroll' })).body.id;
    const bad = ['Pay\u0001roll', 'x'.repeat(101), '   ', 'Pay\u200broll', 'Pay\u202eroll', '\t'];
    for (const nickname of bad) {
      for (const [path, body] of [
        [ACCOUNTS, { type: 'business', country: 'US', nickname }],
        [`${ACCOUNTS}/${id}`, { nickname }],
      ] as const) {
        const reply = await post(path, body);
        assertProblem(reply, 'parameter_invalid', 'nickname');
        assert.match(reply.body.detail, FREE_TEXT, `${JSON.stringify(nickname)} to ${path}`);
      }
    }
    assert.match((await post(`${ACCOUNTS}/${id}`, { nickname: '\t' })).body.detail, /Or "" to clear it/);
    assert.equal((await post(ACCOUNTS, { type: 'business', country: 'US', nickname: 'x'.repeat(100) })).status, 200);
    assertProblem(await post(`${ACCOUNTS}/${id}`, { nickname: null }), 'parameter_invalid', 'nickname');
    assertProblem(
      await post(ACCOUNTS, { type: 'business', country: 'US', nickname: '' }),
      'parameter_invalid',
      'nickname',
    );
  });

  test('the update takes metadata, a nickname or both: another field is unknown, none at all is missing', async () => {
    const { post } = await client('nick-update-shape');
    const id = (await post(ACCOUNTS, { type: 'business', country: 'US', nickname: 'Payroll' })).body.id;
    const country = await post(`${ACCOUNTS}/${id}`, { country: 'GB' });
    assertProblem(country, 'parameter_unknown', 'country');
    assertProblem(await post(`${ACCOUNTS}/${id}`, { country: 'GB', nickname: 'x' }), 'parameter_unknown', 'country');
    const empty = await post(`${ACCOUNTS}/${id}`, {});
    assertProblem(empty, 'parameter_missing');
    assert.equal(empty.body.detail, 'The body must give at least one of: metadata, nickname.');
    assertProblem(await post(`${ACCOUNTS}/acct_01ZZZZZZZZZZZZZZZZZZZZZZZZ`, { nickname: 'x' }), 'resource_not_found');
  });

  test('fintech.account.updated is emitted only when the nickname or the metadata changed', async () => {
    const { post, m } = await client('nick-events');
    const id = (await post(ACCOUNTS, { type: 'business', country: 'US' })).body.id;
    const updates = [
      { nickname: '' }, // already none: nothing
      { nickname: 'Payroll' },
      { nickname: '  Payroll ' }, // the same once trimmed: nothing
      { metadata: { a: '1' } },
      { nickname: 'Payroll', metadata: { a: '1' } }, // nothing
      { nickname: '' },
      { nickname: '' }, // nothing
    ];
    for (const body of updates) assert.equal((await post(`${ACCOUNTS}/${id}`, body)).status, 200);
    const events = await m.get('/v1/events?type=fintech.account.updated');
    assert.deepEqual(
      events.data
        .reverse()
        .map((e: { data: { object: { nickname: string; metadata: object } } }) => [
          e.data.object.nickname,
          e.data.object.metadata,
        ]),
      [
        ['Payroll', {}],
        ['Payroll', { a: '1' }],
        [null, { a: '1' }],
      ],
    );
  });
});
