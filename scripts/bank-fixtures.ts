/**
 * Generated bank days (never real data): one list of lines written as camt.053, BAI2 and CSV, for the tests and for
 * docs/deploy.md's examples ("Statements in").
 *
 *   node scripts/bank-fixtures.ts --out DIR [--date 2026-12-01] [--known 123456789012] [--disabled …] [--trace …]
 *
 * writes DIR/statement.camt053.xml, DIR/statement.bai2, DIR/statement.csv (and statement.camt053-08.xml, the same
 * day in the camt.053.001.08 namespace).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeBai2 } from '../src/products/fintech/bank/statements/bai2.ts';
import { writeCamt053 } from '../src/products/fintech/bank/statements/camt053.ts';
import { writeCsv } from '../src/products/fintech/bank/statements/csv.ts';
import type { Statement, StatementLine } from '../src/products/fintech/bank/statements/statement.ts';

export interface BankDay {
  date: string;
  /** The omnibus balance before the day. */
  opening: number;
  /** An active live account number: a credit to it becomes an inbound payment. */
  known: string;
  /** A disabled number, and one nobody holds: credits to them are exceptions. */
  disabled: string;
  unknown: string;
  /** Trace numbers of submitted live ACH payments: the first settles, the second returns R01, the third R03. */
  traces: [string, string, string];
  /** Their amounts, in cents. */
  tracedAmounts: [number, number, number];
}

/** The one list of lines: a bank day with every kind of line Plinth reads. */
export function bankDayLines(day: BankDay): StatementLine[] {
  const line = (
    n: number,
    rest: Pick<StatementLine, 'direction' | 'amount' | 'kind'> & Partial<StatementLine>,
  ): StatementLine => ({
    reference: `BR${day.date.replaceAll('-', '')}${String(n).padStart(4, '0')}`,
    date: day.date,
    accountNumber: null,
    traceNumber: null,
    returnCode: null,
    counterparty: null,
    description: null,
    ...rest,
  });
  const [t1, t2, t3] = day.traces;
  const [a1, a2, a3] = day.tracedAmounts;
  return [
    line(1, {
      direction: 'credit',
      amount: 125_000,
      kind: 'credit',
      accountNumber: day.known,
      counterparty: 'Globex Corporation',
      description: 'INV 1001, December',
    }),
    line(2, {
      direction: 'credit',
      amount: 4_200,
      kind: 'credit',
      accountNumber: day.disabled,
      counterparty: 'Initech LLC',
      description: 'Refund',
    }),
    line(3, {
      direction: 'credit',
      amount: 9_999,
      kind: 'credit',
      accountNumber: day.unknown,
      counterparty: 'Umbrella "Corp"',
      description: null,
    }),
    line(4, { direction: 'debit', amount: a1, kind: 'ach_settlement', traceNumber: t1, description: 'ACH settlement' }),
    line(5, { direction: 'debit', amount: a2, kind: 'ach_settlement', traceNumber: t2, description: 'ACH settlement' }),
    line(6, {
      direction: 'credit',
      amount: a2,
      kind: 'ach_return',
      traceNumber: t2,
      returnCode: 'R01',
      description: 'Insufficient funds',
    }),
    line(7, {
      direction: 'credit',
      amount: a3,
      kind: 'ach_return',
      traceNumber: t3,
      returnCode: 'R03',
      description: 'No account',
    }),
    line(8, {
      direction: 'debit',
      amount: 2_500,
      kind: 'fee',
      counterparty: 'Bank',
      description: 'Monthly service fee',
    }),
  ];
}

/** The day as a statement, its closing balance the opening plus its lines. */
export function bankDay(day: BankDay): Statement {
  const lines = bankDayLines(day);
  const closing = lines.reduce((s, l) => s + (l.direction === 'credit' ? l.amount : -l.amount), day.opening);
  return {
    format: 'csv',
    account: 'OMNIBUS-0001',
    date: day.date,
    currency: 'USD',
    opening: day.opening,
    closing,
    lines,
  };
}

/** The three formats (and camt.053's .08 namespace) of one day, by file name. */
export function bankDayFiles(statement: Statement): Record<string, string> {
  return {
    'statement.camt053.xml': writeCamt053(statement, 2),
    'statement.camt053-08.xml': writeCamt053(statement, 8),
    'statement.bai2': writeBai2(statement),
    'statement.csv': writeCsv(statement),
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      date: { type: 'string', default: '2026-12-01' },
      opening: { type: 'string', default: '1000000' },
      known: { type: 'string', default: '100000000001' },
      disabled: { type: 'string', default: '100000000002' },
      unknown: { type: 'string', default: '999999999999' },
      trace: { type: 'string', multiple: true, default: ['021000020000001', '021000020000002', '021000020000003'] },
      amounts: { type: 'string', default: '6000,3000,1500' },
    },
  });
  if (values.out === undefined) {
    process.stderr.write('usage: node scripts/bank-fixtures.ts --out DIR [--date YYYY-MM-DD] [--known DIGITS] …\n');
    process.exit(64);
  }
  const amounts = values.amounts.split(',').map(Number) as [number, number, number];
  const statement = bankDay({
    date: values.date,
    opening: Number(values.opening),
    known: values.known,
    disabled: values.disabled,
    unknown: values.unknown,
    traces: values.trace as [string, string, string],
    tracedAmounts: amounts,
  });
  mkdirSync(values.out, { recursive: true });
  for (const [name, text] of Object.entries(bankDayFiles(statement))) writeFileSync(join(values.out, name), text);
}
