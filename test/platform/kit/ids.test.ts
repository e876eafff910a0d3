import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { isIdOf, newId } from '../../../src/platform/kit/ids.ts';

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

test('the first ten characters encode the millisecond, so ids from any process sort by time', () => {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const now = 2_000_000_000_000; // later than any clock the property above used: this process's ids are monotonic
  const id = newId('x', now);
  const decoded = [...id.slice(2, 12)].reduce((ms, c) => ms * 32 + alphabet.indexOf(c), 0);
  assert.equal(decoded, now);
});
