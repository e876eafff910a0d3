import { sql } from 'kysely';
import type { Db } from '../../../../db/database.ts';
import { storedTime } from '../../../../platform/kit/time.ts';

/**
 * The balance proof of one statement day (docs/deploy.md, "Statements in"): the bank's closing balance against the
 * ledger's, read at one moment — the end of that day (UTC), or, when the day's statement was imported later, just
 * after its last line was applied (its settlements and returns are in the ledger from then). The ledger's side is
 * every live customer account's current balance (the last entry before the moment), shown as two parts: what the
 * clearing accounts will take for submitted, unsettled ACH payments (still at the bank; held, not yet posted), and the
 * rest. The difference must equal the sum of the open exceptions: lines the bank booked that no account was given.
 */

export interface BalanceProof {
  date: string;
  /** The moment the ledger is read at. */
  ledger_at: string;
  bank_closing: number;
  ledger: { customer_accounts: number; clearing_unsettled: number; total: number };
  difference: number;
  open_exceptions: { line: string; reference: string; amount: number; reason: string }[];
  open_exceptions_sum: number;
  explained: boolean;
}

export async function reconcileDay(db: Db, date: string): Promise<BalanceProof | undefined> {
  const statement = await db
    .selectFrom('bank_statements')
    .select('closing')
    .where('statement_date', '=', date)
    .executeTakeFirst();
  if (statement === undefined) return undefined;
  const lastApplied = await db
    .selectFrom('bank_statement_lines')
    .select((eb) => eb.fn.max('imported_at').as('at'))
    .where('statement_date', '=', date)
    .executeTakeFirst();
  const endOfDay = Date.parse(`${date}T00:00:00.000Z`) + 86_400_000;
  const applied = lastApplied?.at ? Date.parse(lastApplied.at) + 1 : 0;
  const moment = storedTime(new Date(Math.max(endOfDay, applied)));
  const balances = await sql<{ total: string | number | null }>`
    select sum(e.balance_after) as total from ledger_accounts a
    join ledger_entries e on e.account_id = a.id
    where a.mode = 'live' and a.kind = 'customer'
      and e.account_seq = (select max(e2.account_seq) from ledger_entries e2
        where e2.account_id = a.id and e2.created_at < ${moment})`.execute(db);
  const current = Number(balances.rows[0]?.total ?? 0);
  const unsettled = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.sum<string | number>('amount').as('total'))
    .where('mode', '=', 'live')
    .where('direction', '=', 'outbound')
    .where('submitted_at', '<', moment)
    .where((eb) => eb.or([eb('settled_at', 'is', null), eb('settled_at', '>=', moment)]))
    .where((eb) => eb.or([eb('returned_at', 'is', null), eb('returned_at', '>=', moment)]))
    .executeTakeFirst();
  const clearing = Number(unsettled?.total ?? 0);
  const open = await db
    .selectFrom('bank_exceptions as x')
    .innerJoin('bank_statement_lines as l', 'l.id', 'x.line_id')
    .select(['x.line_id as line', 'l.reference', 'x.amount', 'x.reason'])
    .where('x.status', '=', 'open')
    .where('x.statement_date', '<=', date)
    .orderBy('x.line_id')
    .execute();
  const openExceptions = open.map((row) => ({ ...row, amount: Number(row.amount) }));
  const openSum = openExceptions.reduce((s, e) => s + e.amount, 0);
  const closing = Number(statement.closing);
  const difference = closing - current;
  return {
    date,
    ledger_at: moment,
    bank_closing: closing,
    ledger: { customer_accounts: current - clearing, clearing_unsettled: clearing, total: current },
    difference,
    open_exceptions: openExceptions,
    open_exceptions_sum: openSum,
    explained: difference === openSum,
  };
}
