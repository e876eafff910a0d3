import { createHash } from 'node:crypto';
import type { Database, Trx } from '../../../../db/database.ts';
import { newId } from '../../../../platform/kit/ids.ts';
import { storedTime } from '../../../../platform/kit/time.ts';
import type { WriteContext } from '../../../../platform/operations/context.ts';
import { findNumber } from '../../account-numbers.service.ts';
import { toAmount } from '../../ledger/amount.ts';
import { receivePayment } from '../../payments.inbound.ts';
import { lockPaymentRow } from '../../payments.repository.ts';
import type { PaymentDeps } from '../../payments.service.ts';
import { outcomes, type RuleBook } from '../../payments.steps.ts';
import type { AccountNumbersTable, PaymentsTable } from '../../tables.ts';
import type { Statement, StatementLine } from './statement.ts';
import type { BankStatementLinesTable, MatchRule } from './tables.ts';

/**
 * A statement's lines stored and matched (docs/deploy.md, "Statements in"), each line in the same write as what its
 * match made (up to 200 lines a write), so a line is applied once even if the import is stopped and run again. The
 * rules, in order:
 *   1. a credit to an active live account number (of an active account) → an inbound payment to its account;
 *   2. a settlement or return line naming the trace number of a live ACH payment out → it settles, or returns;
 *   3. anything else → an exception, open until resolved.
 */

/** Live payments have no sandbox rules. */
const NO_RULES: RuleBook = { match: async () => undefined };

export interface LineOutcome {
  reference: string;
  rule: MatchRule;
  payment_id: string | null;
  /** The status its match left the payment in. */
  payment_status: string | null;
  exception: string | null;
}

export interface ImportResult {
  date: string;
  opening: number;
  closing: number;
  lines: number;
  added: number;
  outcomes: LineOutcome[];
}

interface Matched {
  rule: MatchRule;
  orgId: string | null;
  payment: PaymentsTable | null;
  exception: string | null;
}

const exception = (reason: string): Matched => ({ rule: 'exception', orgId: null, payment: null, exception: reason });

export async function importStatement(
  database: Database,
  deps: PaymentDeps,
  statement: Statement,
  fileText: string,
): Promise<ImportResult> {
  const now = new Date();
  await database.write(async (trx) => {
    await trx
      .insertInto('bank_statements')
      .values({
        id: newId('bst', now.getTime()),
        statement_date: statement.date,
        format: statement.format,
        opening: statement.opening,
        closing: statement.closing,
        line_count: statement.lines.length,
        sha256: createHash('sha256').update(fileText).digest('hex'),
        imported_at: storedTime(now),
      })
      .onConflict((c) => c.column('statement_date').doNothing())
      .execute();
  });
  const result: ImportResult = {
    date: statement.date,
    opening: statement.opening,
    closing: statement.closing,
    lines: statement.lines.length,
    added: 0,
    outcomes: [],
  };
  for (let from = 0; from < statement.lines.length; from += BATCH) {
    const batch = statement.lines.slice(from, from + BATCH);
    const outcomes = await database.write(async (trx) => {
      // Imports take turns (PostgreSQL: two processes at once): the second finds the first's lines stored.
      trx.takeTurn('bank_import');
      const done: { added: boolean; outcome: LineOutcome }[] = [];
      for (const line of batch) done.push(await storeLine(deps, trx, statement.date, line));
      return done;
    });
    for (const { added, outcome } of outcomes) {
      if (added) result.added++;
      result.outcomes.push(outcome);
    }
  }
  return result;
}

/** Lines per write: each line is stored in the same write as what its match did, so none is applied twice. */
const BATCH = 200;

/** One line: stored with its match, or, stored already, what its match made then. */
async function storeLine(
  deps: PaymentDeps,
  trx: Trx,
  statementDate: string,
  line: StatementLine,
): Promise<{ added: boolean; outcome: LineOutcome }> {
  const stored = await trx
    .selectFrom('bank_statement_lines')
    .selectAll()
    .where('reference', '=', line.reference)
    .executeTakeFirst();
  if (stored !== undefined) {
    const open =
      stored.rule === 'exception'
        ? await trx.selectFrom('bank_exceptions').select('reason').where('line_id', '=', stored.id).executeTakeFirst()
        : undefined;
    return { added: false, outcome: outcomeOf(stored, open?.reason ?? null) };
  }
  const at = new Date();
  const matched = await match(deps, trx, line, at);
  const row: BankStatementLinesTable = {
    id: newId('bsl', at.getTime()),
    reference: line.reference,
    statement_date: statementDate,
    booking_date: line.date,
    direction: line.direction,
    amount: line.amount,
    kind: line.kind,
    account_number_last4: line.accountNumber?.slice(-4) ?? null,
    trace_number: line.traceNumber,
    return_code: line.returnCode,
    counterparty: line.counterparty,
    description: line.description,
    rule: matched.rule,
    org_id: matched.orgId,
    payment_id: matched.payment?.id ?? null,
    payment_status: matched.payment?.status ?? null,
    imported_at: storedTime(at),
  };
  await trx.insertInto('bank_statement_lines').values(row).execute();
  if (matched.exception !== null)
    await trx
      .insertInto('bank_exceptions')
      .values({
        line_id: row.id,
        statement_date: statementDate,
        amount: line.direction === 'credit' ? line.amount : -line.amount,
        reason: matched.exception,
        status: 'open',
        account_id: null,
        payment_id: null,
        note: null,
        resolved_at: null,
        created_at: storedTime(at),
      })
      .execute();
  return { added: true, outcome: outcomeOf(row, matched.exception) };
}

/** What a stored line's match made, as printed (the same whichever import stored it). */
function outcomeOf(row: BankStatementLinesTable, exception: string | null): LineOutcome {
  return {
    reference: row.reference,
    rule: row.rule,
    payment_id: row.payment_id,
    payment_status: row.payment_status,
    exception,
  };
}

/** The rules, in order; the first that applies makes the line's match. */
async function match(deps: PaymentDeps, trx: Trx, line: StatementLine, now: Date): Promise<Matched> {
  if (line.kind === 'credit' && line.direction === 'credit') {
    if (line.accountNumber === null) return exception('a credit naming no account number');
    if (deps.routingNumber === null) return exception('a credit, but BANK_ROUTING_NUMBER is not set');
    const found = await findNumber(trx, deps.secrets, deps.routingNumber, line.accountNumber);
    const last4 = `••••${line.accountNumber.slice(-4)}`;
    if (found === undefined || found.mode !== 'live')
      return exception(`a credit to ${last4}, which is no live account number`);
    if (found.status !== 'active') return exception(`a credit to ${last4}, which is ${found.status}`);
    const account = await trx
      .selectFrom('accounts')
      .select('status')
      .where('id', '=', found.account_id)
      .executeTakeFirst();
    if (account?.status !== 'active') return exception(`a credit to ${last4}, whose account is ${account?.status}`);
    return credit(deps, trx, found, line, now, 'account_number');
  }
  if ((line.kind === 'ach_settlement' || line.kind === 'ach_return') && line.traceNumber !== null) {
    const candidate = await trx
      .selectFrom('payments')
      .selectAll()
      .where('trace_number', '=', line.traceNumber)
      .where('mode', '=', 'live')
      .where('direction', '=', 'outbound')
      .where('rail', '=', 'ach')
      .executeTakeFirst();
    if (candidate === undefined) return exception(`trace number ${line.traceNumber} names no live ACH payment`);
    const owner = { orgId: candidate.org_id, mode: 'live' as const };
    const ctx: WriteContext = { trx, owner, request: null, now };
    const row = (await lockPaymentRow(trx, owner, candidate.id))!;
    if (Number(row.amount) !== line.amount)
      return exception(`trace number ${line.traceNumber}: the line's amount differs from payment ${row.id}'s`);
    if (line.kind === 'ach_settlement') {
      if (row.status !== 'submitted')
        return exception(`trace number ${line.traceNumber}: payment ${row.id} is ${row.status}, not submitted`);
      if (line.direction !== 'debit')
        return exception(`trace number ${line.traceNumber}: a settlement must be a debit`);
      const settled = await outcomes.settle(deps, NO_RULES, ctx, row);
      return { rule: 'trace_number', orgId: row.org_id, payment: settled, exception: null };
    }
    if (row.status !== 'submitted' && row.status !== 'settled')
      return exception(
        `trace number ${line.traceNumber}: payment ${row.id} is ${row.status}; only a submitted or settled one returns`,
      );
    if (line.returnCode === null || !/^R[0-9]{2}$/.test(line.returnCode))
      return exception(`trace number ${line.traceNumber}: a return line needs its R code`);
    const returned = await outcomes.return(deps, ctx, row, line.returnCode);
    return { rule: 'trace_number', orgId: row.org_id, payment: returned, exception: null };
  }
  if (line.kind === 'fee') return exception('a bank fee');
  return exception(`a ${line.kind} line no rule matches`);
}

/** An inbound payment to `found`'s account, in its org's write (rule 1, and an exception resolved to an account). */
export async function credit(
  deps: PaymentDeps,
  trx: Trx,
  found: AccountNumbersTable,
  line: Pick<StatementLine, 'amount' | 'counterparty' | 'description'>,
  now: Date,
  rule: MatchRule,
): Promise<Matched> {
  const ctx: WriteContext = { trx, owner: { orgId: found.org_id, mode: 'live' }, request: null, now };
  const payment = await receivePayment(deps, ctx, found, {
    amount: toAmount(line.amount),
    rail: 'ach',
    direction: 'credit',
    originator: line.counterparty,
    description: line.description,
  });
  return { rule, orgId: found.org_id, payment, exception: null };
}
