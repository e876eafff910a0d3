/**
 * One day's statement of the omnibus account, whatever format it came in (docs/deploy.md, "Statements in"): camt.053,
 * BAI2 and CSV are each read into this one shape, and every check and every match works on it.
 */

/** What a line is, as the bank's transaction code says (camt.053 `BkTxCd`, BAI2 type code, CSV `type`). */
export type LineKind = 'credit' | 'ach_settlement' | 'ach_return' | 'fee' | 'other';

export interface StatementLine {
  /** The bank's own reference for the line, unique across its statements: a line is stored once under it. */
  reference: string;
  /** The booking date, YYYY-MM-DD. */
  date: string;
  direction: 'credit' | 'debit';
  /** Integer minor units (cents), positive; `direction` says which way. */
  amount: number;
  kind: LineKind;
  /** A credit's beneficiary account number (a virtual number on the omnibus account); digits only. */
  accountNumber: string | null;
  /** An ACH settlement's or return's trace number (15 digits). */
  traceNumber: string | null;
  /** A return's R code (R01, R03, …). */
  returnCode: string | null;
  counterparty: string | null;
  description: string | null;
}

export interface Statement {
  format: StatementFormat;
  /** The omnibus account's identifier as the bank writes it. */
  account: string;
  date: string;
  currency: string;
  /** Opening and closing ledger balances, in minor units (signed). */
  opening: number;
  closing: number;
  lines: StatementLine[];
}

export const FORMATS = ['camt053', 'bai2', 'csv'] as const;
export type StatementFormat = (typeof FORMATS)[number];

/** A file that does not add up, or cannot be read: refused whole (exit 65), the message naming what is wrong. */
export class StatementRefused extends Error {}

/** "1234.56" (or "1234.5", "1234") as cents; refuses anything else. */
export function centsOf(text: string, what: string): number {
  const match = /^(-?)([0-9]+)(?:\.([0-9]{1,2}))?$/.exec(text.trim());
  if (match === null) throw new StatementRefused(`${what}: "${text}" is not an amount like 1234.56`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) throw new StatementRefused(`${what}: ${text} is too large`);
  return match[1] === '-' ? -cents : cents;
}

/** Cents as "1234.56" (negative with a leading minus). */
export function decimalOf(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Each line's shape, then opening + credits − debits = closing, and references unique: else refused whole. */
export function checkStatement(statement: Statement): Statement {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(statement.date))
    throw new StatementRefused(`the statement's date "${statement.date}" is not YYYY-MM-DD`);
  if (statement.currency !== 'USD')
    throw new StatementRefused(`the statement is in ${statement.currency}; the omnibus account is in USD`);
  const seen = new Set<string>();
  let sum = 0;
  for (const line of statement.lines) {
    if (line.reference === '') throw new StatementRefused('a line has no bank reference');
    if (seen.has(line.reference))
      throw new StatementRefused(`the bank reference ${line.reference} is on two lines of the file`);
    seen.add(line.reference);
    if (!Number.isSafeInteger(line.amount) || line.amount <= 0)
      throw new StatementRefused(`line ${line.reference}: the amount must be positive`);
    sum += line.direction === 'credit' ? line.amount : -line.amount;
  }
  if (statement.opening + sum !== statement.closing)
    throw new StatementRefused(
      `balance mismatch: opening ${decimalOf(statement.opening)} + entries ${decimalOf(sum)} = ` +
        `${decimalOf(statement.opening + sum)}, but the closing balance is ${decimalOf(statement.closing)}`,
    );
  return statement;
}
