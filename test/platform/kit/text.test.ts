import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { cleanText, freeTextMaxOf, freeTextPattern, TEXT_TABLES } from '../../../src/platform/kit/text.ts';

// The schemas state cleanText's rule as a pattern (issue 23, finding 9); these tests hold the two to one rule.

const LAST = 0x10ffff;
const isSurrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;
const inTable = (table: readonly (readonly [number, number])[], c: number) => table.some(([a, b]) => a <= c && c <= b);
/** As JSON Schema and the server's Ajv read a pattern: ECMA-262 with the `u` flag. */
const matcher = (max: number) => new RegExp(freeTextPattern(max), 'u');

test("the pattern's tables are this Node's Unicode: Cc, Cf, Zl and Zp refused, Zs trimmed", () => {
  const refused = /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]$/u;
  for (let c = 0; c <= LAST; c++) {
    if (isSurrogate(c)) continue;
    const text = String.fromCodePoint(c);
    assert.equal(inTable(TEXT_TABLES.refused, c), refused.test(text), `U+${c.toString(16)}: refused`);
    assert.equal(inTable(TEXT_TABLES.spaces, c), /^\p{Zs}$/u.test(text), `U+${c.toString(16)}: a space`);
    // What trim() removes, once the refused characters are out, is exactly Zs.
    if (!refused.test(text)) assert.equal(text.trim() === '', /^\p{Zs}$/u.test(text), `U+${c.toString(16)}: trim`);
  }
});

test('every code point alone, padded and inside text: the pattern and cleanText agree', () => {
  const pattern = matcher(5);
  for (let c = 0; c <= LAST; c++) {
    if (isSurrogate(c)) continue;
    const ch = String.fromCodePoint(c);
    for (const text of [ch, ` ${ch} `, `${ch}abcde`])
      assert.equal(pattern.test(text), cleanText(text, 5) !== null, `${JSON.stringify(text)}`);
  }
});

test('property: on a generated corpus of well-formed text, the pattern and cleanText agree at every length', () => {
  // Characters the rule cares about, and ordinary ones; lengths around the limit, spaces around the text.
  const interesting = fc.constantFrom(
    ' ',
    '\u00a0',
    '\u3000',
    '\u2009',
    '\t',
    '\n',
    '\u0000',
    '\u007f',
    '\u0085',
    '\u00ad',
    '\u200b',
    '\u200e',
    '\u202e',
    '\u2028',
    '\u2029',
    '\u2066',
    '\ufeff',
    '\u{e0001}',
    '\u{1d173}',
    'a',
    'Z',
    'é',
    'ß',
    '中',
    '😀',
    '\u{10ffff}',
    '-',
    '.',
  );
  const ordinary = fc.string({ unit: 'grapheme', minLength: 0, maxLength: 3 });
  const text = fc
    .array(fc.oneof(interesting, ordinary), { minLength: 0, maxLength: 14 })
    .map((parts) => parts.join(''));
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 12 }), text, (max, raw) => {
      fc.pre(raw.isWellFormed());
      return matcher(max).test(raw) === (cleanText(raw, max) !== null);
    }),
    { numRuns: 20_000 },
  );
});

test('at the limits: max characters after trimming pass with any padding, one more fails', () => {
  for (const max of [100, 200, 500]) {
    const pattern = matcher(max);
    const full = 'x'.repeat(max);
    for (const [text, ok] of [
      [full, true],
      [` \u3000${full}\u00a0 `, true],
      [`${full}x`, false],
      [' '.repeat(max + 5), false],
      ['', false],
      ['😀'.repeat(max), true], // characters are code points, not UTF-16 units
      [`${'😀'.repeat(max)}😀`, false],
    ] as const) {
      assert.equal(pattern.test(text), ok, `${max}: ${text.length} units`);
      assert.equal(cleanText(text, max) !== null, ok, `${max}: cleanText`);
    }
    assert.equal(freeTextMaxOf(freeTextPattern(max)), max);
  }
  assert.equal(freeTextMaxOf('^[A-Z]{2}$'), undefined);
});

test('lone surrogates: the one difference, which the pattern cannot name and cleanText refuses', () => {
  // Rust's regex engine (Schemathesis validates with it) refuses a pattern that names U+D800–U+DFFF, and a lone
  // surrogate can only arrive as a JSON escape. The server refuses it all the same, through cleanText.
  for (const text of ['\ud800', 'a\udc00b', '😀\ud83d']) {
    assert.equal(matcher(10).test(text), true);
    assert.equal(cleanText(text, 10), null);
  }
});
