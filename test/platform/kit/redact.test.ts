import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { registerModules, SECRET_SHAPES } from '../../../src/modules.ts';
import { generateKey } from '../../../src/platform/auth/key-format.ts';
import {
  jsonMayHoldSecret,
  redactBody,
  redactedJson,
  redactQuery,
  redactRecord,
  redactSecrets,
  type SecretShape,
  useSecretShapes,
} from '../../../src/platform/kit/redact.ts';

// What every process does at start-up: the EIN's shape is fintech's, registered with the product.
registerModules();

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

/** Every %XX decoded, three times over: what a reader of the output could recover. */
function decoded(text: string): string {
  let out = text;
  for (let i = 0; i < 3; i++)
    out = out.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return out;
}

test('property: a key or webhook secret anywhere, in any percent-encoding, never reaches the output', () => {
  const secret = fc.oneof(
    fc.constantFrom<'sandbox' | 'live'>('sandbox', 'live').map((mode) => generateKey(mode)),
    fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => `whsec_${Buffer.from(bytes).toString('base64')}`),
  );
  const spelling = fc.array(fc.constantFrom('plain', 'upper', 'lower', 'double', 'capital'), {
    minLength: 60,
    maxLength: 60,
  });
  const around = fc.string({ maxLength: 12 });
  fc.assert(
    fc.property(secret, spelling, around, around, (plain, how, before, after) => {
      const spelt = [...plain]
        .map((c, i) => {
          const hex = c.charCodeAt(0).toString(16).padStart(2, '0');
          if (how[i] === 'upper') return `%${hex.toUpperCase()}`;
          if (how[i] === 'lower') return `%${hex}`;
          if (how[i] === 'double') return `%25${hex}`;
          // The prefix in capitals: not a valid key, but the secret after it is the same.
          if (how[i] === 'capital' && i < 8) return c.toUpperCase();
          return c;
        })
        .join('');
      const text = `${before}${spelt}${after}`;
      const core = plain.slice(plain.indexOf('_', 3) + 1, -4);
      const record = { path: text, nested: { list: [text] }, err: new Error(text) };
      for (const output of [redactSecrets(text), JSON.stringify(redactRecord(record))])
        assert.ok(!decoded(output).includes(core), `${text} → ${output}`);
    }),
    { numRuns: 3000 },
  );
});

test('an EIN with or without its dash, plain or encoded; not the digits of an id, nor the documented example', () => {
  for (const text of ['271234567', 'ein=271234567&x', 'acct_271234567', '%20271234567', '%32%37-1234567', '27-1234567'])
    assert.doesNotMatch(decoded(redactSecrets(text)), /271234567|27-1234567/, text);
  for (const text of [
    'acct_01KAQX7ZJ0123456789ABCDEF',
    'req_D21NC0123456789MXSDK',
    '1234567890',
    'must look like 12-3456789',
  ])
    assert.equal(redactSecrets(text), text);
});

test('a key hint (prefix and last four) is not a secret and stays', () => {
  assert.equal(redactSecrets('sk_live_…a1B2'), 'sk_live_…a1B2');
});

test('field names are redacted by shape, at any depth, keeping their order; secret-named fields stay censored', () => {
  const record = { a: 1, [KEY]: 2, nested: { '98-7654321': 'x', [`x${KEY}`]: { key: 'k' } }, z: 3 };
  assert.equal(
    JSON.stringify(redactRecord(record)),
    '{"a":1,"sk_live_[redacted]":2,"nested":{"[redacted EIN]":"x","xsk_live_[redacted]":{"key":"[redacted]"}},"z":3}',
  );
  const proto = JSON.parse(`{"__proto__": "${KEY}"}`);
  assert.equal(JSON.stringify(redactRecord(proto)), '{"__proto__":"sk_live_[redacted]"}', 'a field, not a prototype');
});

test('restricted keys (rk_test_, rk_live_) are keys', () => {
  for (const prefix of ['rk_test_', 'rk_live_', 'RK_LIVE_'])
    assert.equal(redactSecrets(`x ${prefix}${KEY.slice(8)}.`), `x ${prefix}[redacted].`);
});

test('property: a key split by whitespace or separators is redacted up to its length (issue 30, finding 4)', () => {
  const separators = fc.constantFrom(' ', '\n', '\r\n', '\t', '\u200b', '"', "', '", '.', ':\n', ' | ');
  fc.assert(
    fc.property(
      fc.constantFrom<'sandbox' | 'live'>('sandbox', 'live').map((mode) => generateKey(mode)),
      fc.uniqueArray(fc.integer({ min: 8, max: 45 }), { minLength: 1, maxLength: 4 }),
      fc.array(separators, { minLength: 4, maxLength: 4 }),
      (key, cuts, between) => {
        const at = [...cuts].sort((a, b) => a - b);
        const pieces = at.map((cut, i) => key.slice(i === 0 ? 0 : at[i - 1], cut));
        const split = pieces.map((piece, i) => piece + between[i]).join('') + key.slice(at.at(-1));
        const prefix = key.slice(0, 8);
        assert.equal(redactSecrets(`${split}… and then`), `${prefix}[redacted]… and then`, JSON.stringify(split));
      },
    ),
    { numRuns: 1000 },
  );
  // Past a key's length, a separator ends it: the words after a key stay.
  assert.equal(redactSecrets(`${KEY} and then`), 'sk_live_[redacted] and then');
  assert.equal(redactSecrets(`whsec_${'A'.repeat(43)}= then`), 'whsec_[redacted] then');
});

test('the platform has no EIN of its own: the shape and the `ein` field are fintech’s registration', () => {
  const text = `EIN 27-1234567, key ${KEY}`;
  const record = { kyb: { ein: 'plain' } };
  try {
    useSecretShapes([]);
    assert.equal(redactSecrets(text), 'EIN 27-1234567, key sk_live_[redacted]');
    assert.deepEqual(redactRecord(record), record);
  } finally {
    useSecretShapes(SECRET_SHAPES);
  }
  assert.equal(redactSecrets(text), 'EIN [redacted EIN], key sk_live_[redacted]');
  assert.deepEqual(redactRecord(record), { kyb: { ein: '[redacted]' } });
});

test('registered shapes compile together: each has its placeholder, example, loose form and fields', () => {
  const pin: SecretShape = { name: 'PIN', pattern: /PIN-[0-9]{4}/, hint: /PIN-/, example: 'PIN-0000', fields: ['pin'] };
  try {
    useSecretShapes([...SECRET_SHAPES, pin]);
    assert.equal(
      redactSecrets('PIN-1234 27-1234567 271234567 PIN-0000 12-3456789 PIN%2D4321'),
      '[redacted PIN] [redacted EIN] [redacted EIN] PIN-0000 12-3456789 [redacted PIN]',
    );
    // The loose form (nine digits alone) is not looked for in the server's own numbers; the shapes are.
    assert.equal(redactSecrets('PIN-1234 has 123456789', { ownNumbers: true }), '[redacted PIN] has 123456789');
    assert.deepEqual(redactRecord({ pin: 'x', ein: 'y', note: 'n' }), {
      pin: '[redacted]',
      ein: '[redacted]',
      note: 'n',
    });
  } finally {
    useSecretShapes(SECRET_SHAPES);
  }
});

test("fields shown by their last four (fintech's account numbers): `••••4821` at any depth, in bodies and queries", () => {
  const record = {
    account_number: '771093524821',
    match: { external_account_number: '000123456789', amount: 6000 },
    list: [{ corrected_data: '021000021 000987654321' }],
    account_number_last4: '4821',
    numeric: { account_number: 771093524821 },
    odd: { account_number: { nested: '771093524821' } },
    none: { account_number: null },
  };
  assert.deepEqual(redactRecord(record), {
    account_number: '••••4821',
    match: { external_account_number: '••••6789', amount: 6000 },
    list: [{ corrected_data: '••••4321' }],
    account_number_last4: '4821',
    numeric: { account_number: '••••4821' },
    odd: { account_number: '[redacted]' },
    none: { account_number: null },
  });
  const body = { account_number: '771093524821', amount: 100 };
  assert.equal(redactedJson(body), '{"account_number":"••••4821","amount":100}');
  assert.equal(jsonMayHoldSecret('{"account_number_last4":"4821"}'), false, 'the last four alone need no walk');
  assert.equal(
    redactQuery('limit=2&account_number=771093524821&match[external_account_number]=000123456789&x=%37%37'),
    'limit=2&account_number=••••4821&match[external_account_number]=••••6789&x=%37%37',
  );
});

test('property: a JSON text jsonMayHoldSecret passes is exactly what redactBody leaves it (the log keeps it unparsed)', () => {
  const word = fc.constantFrom(
    'id',
    'key',
    'ein',
    'secret',
    'name',
    'note',
    'api_key',
    'keys',
    'Authorization',
    'account_number',
    'account_number_last4',
  );
  const text = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('98-7654321', '987654321', '12-3456789', 'sk_', 'whsec_', '%73k_live_', 'a"b', 'line\nbreak'),
    fc.constantFrom<'sandbox' | 'live'>('sandbox', 'live').map((mode) => generateKey(mode)),
  );
  const value = fc.letrec((tie) => ({
    leaf: fc.oneof(text, fc.integer(), fc.constant(null)),
    node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), tie('object')),
    object: fc.dictionary(fc.oneof(word, text), tie('node'), { maxKeys: 4 }),
  }));
  let kept = 0;
  fc.assert(
    fc.property(value.object, (body) => {
      const json = JSON.stringify(body);
      if (jsonMayHoldSecret(json)) return;
      kept++;
      assert.equal(JSON.stringify(redactBody(body as Record<string, unknown>)), json);
    }),
    { numRuns: 2000 },
  );
  assert.ok(kept > 100, `${kept} texts kept unparsed: the property was tested`);
  for (const held of ['{"key":"k-9"}', '{"n":"98-7654321"}', '{"n":"a\\"b"}', `{"n":"${generateKey('live')}"}`])
    assert.equal(jsonMayHoldSecret(held), true, held);
});

test('property: a body serialized for the request log is exactly its redacted form, scanned or walked', () => {
  const text = fc.oneof(
    fc.string(),
    fc.constantFrom(KEY, `x${KEY}y`, '27-1234567', '271234567', 'sk_', '%73k_live_', 'a\nb', 'q"uote', 'back\\slash'),
  );
  const name = fc.oneof(
    fc.string(),
    fc.constantFrom('key', 'secret', 'ein', 'authorization', 'api_key', 'note', 'account_number', 'corrected_data'),
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 3 }),
    object: fc.dictionary(name, tie('value'), { maxKeys: 4 }),
  }));
  fc.assert(
    fc.property(fc.dictionary(name, value, { maxKeys: 5 }), (body) => {
      assert.equal(redactedJson(body), JSON.stringify(redactBody(body)));
    }),
    { numRuns: 2000 },
  );
});

test('a shape whose hint spans a character JSON escapes is still found in a body: an escape means a walk', () => {
  const split: SecretShape = { name: 'SPLIT', pattern: /AB\nCD/, hint: /B\nC/ };
  try {
    useSecretShapes([...SECRET_SHAPES, split]);
    assert.equal(redactedJson({ note: 'xAB\nCDx' }), '{"note":"x[redacted SPLIT]x"}');
    assert.equal(redactedJson({ key: 'plain', note: 'n' }), '{"key":"[redacted]","note":"n"}');
    assert.equal(redactedJson({ note: 'nothing here' }), '{"note":"nothing here"}');
  } finally {
    useSecretShapes(SECRET_SHAPES);
  }
});

test('a key cut at the end of one string and carried on at the start of the next is redacted in both', () => {
  // Issue 39, item 9: two lines of the dashboard's metadata field, `n=sk_live_ABC` and `<the other 35>=x`.
  const key = generateKey('live');
  const [head, rest] = [key.slice(0, 11), key.slice(11)];
  assert.deepEqual(redactBody({ metadata: { n: head, [rest]: 'x', after: 'kept' } }), {
    metadata: { n: 'sk_live_[redacted]', '[redacted]': 'x', after: 'kept' },
  });
  assert.deepEqual(redactBody({ tags: [head, `  ${rest} then words`] }), {
    tags: ['sk_live_[redacted]', '[redacted] then words'],
  });
  assert.deepEqual(twoStrings(`${head}`, rest), ['sk_live_[redacted]', '[redacted]']);
  // A string that ends before the rest would (32 of the 38 in a 40-character metadata key, then `x`) carries none.
  assert.deepEqual(redactBody({ metadata: { [key.slice(0, 40)]: 'x', y: 'z' } }), {
    metadata: { 'sk_live_[redacted]': 'x', y: 'z' },
  });
  // Nor does a whole key, or a string with no key.
  assert.deepEqual(redactBody({ a: key, [rest]: 'x' }), { a: 'sk_live_[redacted]', [rest]: 'x' });
  assert.deepEqual(redactBody({ a: 'plain', [rest]: 'x' }), { a: 'plain', [rest]: 'x' });
});

/** Two strings of an array, as the request log keeps them. */
const twoStrings = (a: string, b: string) => redactBody({ v: [a, b] }).v;
