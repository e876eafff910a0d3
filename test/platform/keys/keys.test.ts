import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { checksum, generateKey, hashKey, keyHint, parseKey } from '../../../src/platform/auth/key-format.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('API key format', () => {
  test('sk_test_/sk_live_, 32 base62 characters, 6 checksum characters', () => {
    assert.match(generateKey('sandbox'), /^sk_test_[0-9A-Za-z]{38}$/);
    assert.match(generateKey('live'), /^sk_live_[0-9A-Za-z]{38}$/);
    assert.equal(parseKey(generateKey('live')), 'live');
    assert.equal(parseKey(generateKey('sandbox')), 'sandbox');
  });

  test('the checksum is zlib CRC-32 of the UTF-8 bytes, base62, most significant first, padded to 6', () => {
    // Known vector: CRC-32("123456789") = 0xCBF43926 = 3421780262.
    assert.equal(crc32('123456789'), 3421780262);
    let n = 3421780262;
    let expected = '';
    while (n > 0) {
      expected = BASE62[n % 62] + expected;
      n = Math.floor(n / 62);
    }
    assert.equal(checksum('123456789'), expected.padStart(6, '0'));
    assert.equal(checksum(''), '000000'); // CRC-32 of nothing is 0
  });

  test('property: any single-character change of a key is rejected', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'sandbox' | 'live'>('sandbox', 'live'),
        fc.nat(45),
        fc.constantFrom(...BASE62),
        (mode, index, replacement) => {
          const key = generateKey(mode);
          const mutated = key.slice(0, index) + replacement + key.slice(index + 1);
          fc.pre(mutated !== key);
          // Changing a prefix character breaks the format; changing any other breaks the CRC.
          return parseKey(mutated) === null;
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('property: arbitrary strings are never accepted as keys', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (s) => parseKey(s) === null));
  });

  test('keys do not repeat, hashes are SHA-256 hex, hints show only prefix and last four', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateKey('sandbox')));
    assert.equal(keys.size, 1000);
    const key = generateKey('live');
    assert.match(hashKey(key), /^[0-9a-f]{64}$/);
    assert.equal(keyHint(key), `sk_live_…${key.slice(-4)}`);
  });
});
