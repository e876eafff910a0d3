import type { Database } from '../../../../db/database.ts';
import { storedTime } from '../../../../platform/kit/time.ts';
import type { PaymentDeps } from '../../payments.service.ts';
import { credit } from './import.ts';
import type { BankExceptionsTable } from './tables.ts';

/** The statement lines no rule matched (docs/deploy.md, "Statements in"): listed, and resolved by the operator. */

/** The open and resolved exceptions, oldest first (`bank exceptions`). */
export async function listExceptions(database: Database, all: boolean) {
  let query = database.db
    .selectFrom('bank_exceptions as e')
    .innerJoin('bank_statement_lines as l', 'l.id', 'e.line_id')
    .select([
      'e.line_id as line',
      'l.reference',
      'e.statement_date as date',
      'e.amount',
      'e.reason',
      'e.status',
      'e.account_id',
      'e.payment_id',
      'e.note',
      'e.resolved_at',
    ])
    .orderBy('e.line_id');
  if (!all) query = query.where('e.status', '=', 'open');
  return (await query.execute()).map((row) => ({ ...row, amount: Number(row.amount) }));
}

export class ResolveRefused extends Error {}

/**
 * Resolves an open exception: `account` credits a credit line's amount to that live account as an inbound payment
 * (through one of its account numbers); `ignore` closes it with the note. Recorded with its note and time.
 */
export async function resolveException(
  database: Database,
  deps: PaymentDeps,
  lineId: string,
  how: { account: string; note: string | null } | { ignore: true; note: string },
): Promise<BankExceptionsTable> {
  return database.write(async (trx) => {
    const open = await trx.selectFrom('bank_exceptions').selectAll().where('line_id', '=', lineId).executeTakeFirst();
    if (open === undefined) throw new ResolveRefused(`no exception for line ${lineId} (see \`bank exceptions\`)`);
    if (open.status !== 'open') throw new ResolveRefused(`line ${lineId}'s exception is already ${open.status}`);
    const now = new Date();
    let change: Partial<BankExceptionsTable>;
    if ('account' in how) {
      const line = (await trx
        .selectFrom('bank_statement_lines')
        .selectAll()
        .where('id', '=', lineId)
        .executeTakeFirst())!;
      if (line.direction !== 'credit')
        throw new ResolveRefused(`line ${lineId} is a debit: only a credit can be given to an account (use --ignore)`);
      const number = await trx
        .selectFrom('account_numbers')
        .selectAll()
        .where('account_id', '=', how.account)
        .where('mode', '=', 'live')
        .orderBy('id')
        .executeTakeFirst();
      if (number === undefined) throw new ResolveRefused(`${how.account} is no live account with an account number`);
      const account = await trx
        .selectFrom('accounts')
        .select('status')
        .where('id', '=', how.account)
        .executeTakeFirst();
      if (account?.status !== 'active') throw new ResolveRefused(`${how.account} is ${account?.status}, not active`);
      const matched = await credit(
        deps,
        trx,
        { ...number, status: 'active' },
        { amount: Number(line.amount), counterparty: line.counterparty, description: line.description },
        now,
        'exception',
      );
      change = { status: 'resolved', account_id: how.account, payment_id: matched.payment!.id, note: how.note };
    } else change = { status: 'ignored', note: how.note };
    const resolved = { ...open, ...change, resolved_at: storedTime(now) };
    await trx
      .updateTable('bank_exceptions')
      .set(change)
      .set({ resolved_at: resolved.resolved_at })
      .where('line_id', '=', lineId)
      .execute();
    return resolved;
  });
}
