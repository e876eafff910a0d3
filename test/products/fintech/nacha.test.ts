/** The NACHA writer and reader of `bank ach-export` (src/products/fintech/bank/nacha.ts), without a database. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type NachaFile, writeNacha } from '../../../src/products/fintech/bank/nacha.ts';
import { readNacha } from '../../../src/products/fintech/bank/nacha-read.ts';

const FILE: NachaFile = {
  destination: '021000021',
  destinationName: 'First Test Bank',
  origin: '1234567890',
  originName: 'PLINTH',
  created: new Date('2026-11-28T15:30:00Z'),
  idModifier: 'A',
  batches: [
    {
      companyName: 'Acmé Corp',
      companyId: '1234567890',
      entryDescription: 'PAYMENT',
      effectiveDate: '261130',
      entries: [
        {
          transactionCode: '22',
          routingNumber: '011000015',
          accountNumber: '000123456789',
          amount: 12_345,
          idNumber: 'pay_1',
          name: 'Zoë Café',
          traceNumber: '021000020000001',
        },
        {
          transactionCode: '32',
          routingNumber: '021000021',
          accountNumber: '9876543210',
          amount: 9_999_999_999,
          idNumber: 'pay_2',
          name: 'Savings Holder',
          traceNumber: '021000020000002',
        },
      ],
    },
  ],
};

describe('NACHA files', () => {
  test('written as 94-character records, padded to blocks of ten, and read back with the same totals', () => {
    const text = writeNacha(FILE);
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, 10);
    assert.ok(lines.every((l) => l.length === 94));
    const header = ['1', '01', ' 021000021', '1234567890', '261128', '1530', 'A', '094', '10', '1'];
    assert.equal(lines[0], `${header.join('')}${'FIRST TEST BANK'.padEnd(23)}${'PLINTH'.padEnd(23)}${' '.repeat(8)}`);
    assert.match(lines[1]!, /^5220ACME CORP {7}/);
    assert.equal(lines[2]!.slice(54, 76), 'ZOE CAFE              ');
    const read = readNacha(text);
    assert.deepEqual(
      { batches: read.batchCount, entries: read.entryCount, credit: read.creditTotal, debit: read.debitTotal },
      { batches: 1, entries: 2, credit: 12_345 + 9_999_999_999, debit: 0 },
    );
    assert.equal(read.entryHash, 1100001 + 2100002);
    assert.deepEqual(
      read.entries.map((e) => e.accountNumber),
      ['000123456789', '9876543210'],
    );
  });

  test('an amount an entry cannot carry is refused when written', () => {
    const entry = { ...FILE.batches[0]!.entries[0]!, amount: 10_000_000_000 };
    assert.throws(() => writeNacha({ ...FILE, batches: [{ ...FILE.batches[0]!, entries: [entry] }] }), /10 digits/);
  });

  test('a control record that does not add up is refused, naming the line', () => {
    const lines = writeNacha(FILE).split('\n');
    const tamper = (n: number, at: number, digit: string) => {
      const copy = [...lines];
      copy[n] = copy[n]!.slice(0, at) + digit + copy[n]!.slice(at + 1);
      return copy.join('\n');
    };
    assert.throws(() => readNacha(tamper(4, 43, '1')), /line 5: credit total/); // batch control's credit total
    assert.throws(() => readNacha(tamper(5, 54, '9')), /line 6: credit total differs/); // file control's
    assert.throws(() => readNacha(tamper(5, 12, '9')), /line 6: block count differs/);
    assert.throws(() => readNacha(tamper(2, 38, '1')), /line 5: credit total/); // an entry's amount
    assert.throws(() => readNacha(lines.slice(0, 9).join('\n')), /not a multiple of 10/);
  });
});
