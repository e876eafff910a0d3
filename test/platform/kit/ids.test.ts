import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { firstIdAt, idPattern, isIdOf, isIdPattern, newId } from '../../../src/platform/kit/ids.ts';

test('ids are prefixed, 26 Crockford base32 characters, and recognised by isIdOf', () => {
  const id = newId('acct');
  assert.match(id, /^acct_[0-9A-HJKMNP-TV-Z]{26}$/);
  assert.ok(isIdOf('acct', id));
  assert.ok(!isIdOf('key', id));
  assert.ok(!isIdOf('acct', `${id}0`));
  assert.ok(!isIdOf('acct', id.toLowerCase()));
});

test('property: ids strictly increase in generation order, even when the clock stalls or steps back', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }), { minLength: 2, maxLength: 50 }),
      (clock) => {
        const ids = clock.map((ms) => newId('acct', ms));
        for (let i = 1; i < ids.length; i++) if (!(ids[i]! > ids[i - 1]!)) return false;
        return true;
      },
    ),
  );
});

test('the first ten characters encode the time in 1/256 ms, so ids from any process sort by time', () => {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const now = 2_000_000_000_000; // later than any clock the property above used: this process's ids are monotonic
  const id = newId('x', now);
  const decoded = [...id.slice(2, 12)].reduce((ms, c) => ms * 32 + alphabet.indexOf(c), 0);
  assert.equal(Math.floor(decoded / 256), now);
});

const randomPart = (id: string) => {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  return [...id.slice(-16)].reduce((n, c) => n * 32n + BigInt(alphabet.indexOf(c)), 0n);
};
const near = (a: bigint, b: bigint) => (a > b ? a - b : b - a) < 2n ** 40n;

test('ids of other kinds minted in the same millisecond share no counter: none is "another id plus one"', () => {
  const ms = 2_100_000_000_000;
  const ids = ['acct', 'req', 'key', 'org', 'req', 'acct', 'req'].map((prefix) => newId(prefix, ms));
  for (let i = 1; i < ids.length; i++) assert.ok(!near(randomPart(ids[i]!), randomPart(ids[i - 1]!)), ids.join(' '));
});

test('every id carries 80 fresh random bits, even many of one kind in one millisecond, and still increases', () => {
  const ms = 2_200_000_000_000;
  const ids = Array.from({ length: 2000 }, () => newId('acct', ms));
  const parts = ids.map(randomPart);
  for (let i = 1; i < ids.length; i++) {
    assert.ok(ids[i]! > ids[i - 1]!, 'strictly increasing');
    assert.ok(!near(parts[i]!, parts[i - 1]!), `${ids[i - 1]} then ${ids[i]}: a counter, not randomness`);
  }
  for (let bit = 0n; bit < 80n; bit++) {
    const ones = parts.filter((p) => (p >> bit) & 1n).length;
    assert.ok(ones > 800 && ones < 1200, `bit ${bit} set in ${ones} of 2000`);
  }
});

test('property: firstIdAt(t) bounds ids by time: none minted at t or later sorts below it, all minted earlier do', () => {
  let kind = 0;
  fc.assert(
    fc.property(
      fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
      fc.integer({ min: 1, max: 10 * 86_400_000 }),
      (t, earlier) => {
        const prefix = `p${kind++}`; // a kind of its own: no earlier id of it has moved its logical clock ahead
        const before = newId(prefix, t - earlier);
        const at = newId(prefix, t);
        const boundary = firstIdAt(prefix, t);
        return before < boundary && at >= boundary && newId(prefix, t + earlier) > boundary;
      },
    ),
  );
});

test('property: the documented id pattern and isIdOf agree, on ids and on near misses', () => {
  const pattern = new RegExp(idPattern('acct'), 'u');
  assert.ok(isIdPattern(idPattern('acct')) && isIdPattern(idPattern('we')));
  assert.ok(!isIdPattern('^[A-Z]{3}$') && !isIdPattern('^acct_[0-9A-Z]{26}$'));
  const crockford = fc.constantFrom(...'0123456789ABCDEFGHJKMNPQRSTVWXYZ');
  const near = fc.constantFrom(...'0123456789ABCDEFGHJKMNPQRSTVWXYZILOUabz_-é ');
  const body = (chars: fc.Arbitrary<string>) =>
    fc.array(chars, { minLength: 24, maxLength: 28 }).map((cs) => cs.join(''));
  const candidate = fc.oneof(
    fc.tuple(fc.constantFrom('acct_', 'key_', 'acct', 'ACCT_'), body(crockford)).map(([p, b]) => p + b),
    fc.tuple(fc.constant('acct_'), body(near)).map(([p, b]) => p + b),
    fc.constant(newId('acct')),
  );
  fc.assert(
    fc.property(candidate, (id) => pattern.test(id) === isIdOf('acct', id)),
    { numRuns: 2000 },
  );
});
