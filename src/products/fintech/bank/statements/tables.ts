import type { Int64 } from '../../tables.ts';

/** One imported day of the omnibus account (docs/deploy.md, "Statements in"); append-only. */
export interface BankStatementsTable {
  id: string;
  statement_date: string;
  format: string;
  opening: Int64;
  closing: Int64;
  line_count: number;
  sha256: string;
  imported_at: string;
}

/** Which rule of the matching made what of a line. */
export type MatchRule = 'account_number' | 'trace_number' | 'exception';

/** A statement line, stored once under the bank's reference with what its match made; append-only. */
export interface BankStatementLinesTable {
  id: string;
  reference: string;
  statement_date: string;
  booking_date: string;
  direction: 'credit' | 'debit';
  amount: Int64;
  kind: string;
  /** Account numbers are secrets: a line keeps the last four digits only. */
  account_number_last4: string | null;
  trace_number: string | null;
  return_code: string | null;
  counterparty: string | null;
  description: string | null;
  rule: MatchRule;
  org_id: string | null;
  payment_id: string | null;
  /** The status the match left the payment in (a later line may change it again). */
  payment_status: string | null;
  imported_at: string;
}

/** A line no rule matched: open until the operator resolves it (an account credited, or ignored with a note). */
export interface BankExceptionsTable {
  line_id: string;
  statement_date: string;
  /** Signed: what the line added to the omnibus account (+ credit, − debit). */
  amount: Int64;
  reason: string;
  status: 'open' | 'resolved' | 'ignored';
  account_id: string | null;
  payment_id: string | null;
  note: string | null;
  resolved_at: string | null;
  created_at: string;
}

declare module '../../../../db/tables.ts' {
  interface Tables {
    bank_statements: BankStatementsTable;
    bank_statement_lines: BankStatementLinesTable;
    bank_exceptions: BankExceptionsTable;
  }
}
