import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactRecord } from '../../../src/platform/kit/redact.ts';

const KEY = `sk_live_${'a1B2c3D4e5'.repeat(4)}`;

test('secret-named fields are censored at any depth, whatever their shape', () => {
  const record = {
    msg: 'x',
    headers: { authorization: 'Bearer whatever-it-is' },
    account: { kyb: { ein: '271234567', legal_name: 'Acme' } },
    endpoints: [{ id: 'we_1', secret: 'plain-looking' }],
    key: 'anything',
    api_key: { id: 'key_1' },
  };
  const clean = JSON.stringify(redactRecord(record));
  for (const secret of ['whatever-it-is', '271234567', 'plain-looking', 'anything', 'key_1'])
    assert.ok(!clean.includes(secret), `${secret} in ${clean}`);
  assert.match(clean, /"legal_name":"Acme"/, 'other fields stay');
  assert.match(clean, /"id":"we_1"/);
  assert.equal(record.headers.authorization, 'Bearer whatever-it-is', 'the caller’s object is not changed');
});

test('key- and EIN-shaped strings are redacted by shape in any field, nested or in an error', () => {
  const clean = JSON.stringify(
    redactRecord({ path: `/v1/api_keys/${KEY}`, nested: { note: 'EIN 27-1234567' }, err: new Error(`bad ${KEY}`) }),
  );
  assert.ok(!clean.includes(KEY.slice(8)), clean);
  assert.ok(!clean.includes('27-1234567'), clean);
  assert.match(clean, /sk_live_\[redacted\]/);
});

test('a record without secrets is returned as it is, without a copy', () => {
  const line = { method: 'GET', route: '/v1/fintech/accounts/:id', path: '/v1/fintech/accounts/acct_1', status: 200 };
  assert.equal(redactRecord(line), line);
});

test('a deep or cyclic structure ends in a marker, not a stack overflow', () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  assert.match(
    JSON.stringify(redactRecord({ cyclic }, 0), (_k, v) => v),
    /nested too deep to log/,
  );
});
