/** The CSV a statement downloads in (docs/dashboard.md#balances-and-statements): RFC 4180, and inert descriptions. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvLine, inert } from '../../src/dashboard/csv.ts';
import { decimal } from '../../src/dashboard/format.ts';
import { parseCsv } from '../helpers/csv.ts';

test('fields with commas, quotes, CR and LF are quoted and read back as written', () => {
  const fields = ['plain', 'a,b', 'say "hi"', 'two\r\nlines', 'lf\nonly', 'cr\ronly', '', ' spaced '];
  const text = csvLine(fields) + csvLine(fields.map((_, i) => String(i)));
  assert.ok(text.startsWith('plain,"a,b","say ""hi""","two\r\nlines","lf\nonly","cr\ronly",, spaced \r\n'), text);
  assert.deepEqual(parseCsv(text), [fields, fields.map((_, i) => String(i))]);
});

test('a description a spreadsheet would run as a formula gets a leading apostrophe; others are left alone', () => {
  for (const formula of ['=HYPERLINK("http://x","y")', '+1', '-2', '@SUM(A1)', '\tTab', '\rCR'])
    assert.equal(inert(formula), `'${formula}`);
  for (const plain of ['Invoice 114', "'quoted", ' =spaced', '1+1']) assert.equal(inert(plain), plain);
});

test('amounts in the major unit, as plain numbers', () => {
  assert.equal(decimal(123456, 'USD'), '1234.56');
  assert.equal(decimal(-5, 'USD'), '-0.05');
  assert.equal(decimal(7, 'JPY'), '7');
  assert.equal(decimal(-1_000_000, 'JPY'), '-1000000');
});

test('the parser is strict: a bare quote, a bare LF, or a missing last CRLF is refused', () => {
  for (const bad of ['a"b\r\n', 'a\nb\r\n', '"a"b\r\n', 'a,b', 'a,b\r\nc\r\n']) assert.throws(() => parseCsv(bad));
});
