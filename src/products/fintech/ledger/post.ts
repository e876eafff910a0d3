import { sql } from 'kysely';
import type { Trx } from '../../../db/database.ts';
import { preparedInsert, preparedInsertRows, preparedWrite } from '../../../db/prepared.ts';
import { newId } from '../../../platform/kit/ids.ts';
import type { Int64, LedgerEntriesTable, LedgerJournalsTable } from '../tables.ts';
import { MAX_AMOUNT, toAmount } from './amount.ts';

export interface Line {
  accountId: string;
  /** What the account must be: a customer's (never below 0) or a system funding account (may go negative). */
  kind: 'customer' | 'system';
  /** Signed minor units: negative takes money out of the account. */
  amount: number;
}

export interface Posted {
  entryId: string;
  accountId: string;
  amount: number;
  balanceAfter: number;
}

/** A journal's lines must balance: at least two, none zero, summing to 0. A breach is a bug, never a client error. */
function assertBalanced(lines: Line[]): void {
  const sum = lines.reduce((total, line) => total + BigInt(line.amount), 0n);
  if (lines.length < 2 || sum !== 0n || lines.some((l) => l.amount === 0 || !Number.isSafeInteger(l.amount)))
    throw new Error('ledger: a journal needs two or more non-zero lines summing to 0');
}

const insertJournal = preparedInsert('ledger_journals', {
  id: true,
  org_id: true,
  mode: true,
  currency: true,
  source_type: true,
  description: true,
  created_at: true,
});
const insertEntries = preparedInsertRows('ledger_entries', {
  id: true,
  journal_id: true,
  account_id: true,
  amount: true,
  balance_after: true,
  account_seq: true,
  created_at: true,
});
type LineParams = { amount: number; id: string; kind: Line['kind'] } & Pick<
  LedgerJournalsTable,
  'org_id' | 'mode' | 'currency'
>;

/**
 * A line's balance change, made only if everything a movement of money needs holds for the account, each a
 * condition of this one statement: the journal's org and mode, the kind of account the caller named, the journal's
 * currency, an `active` status, a balance that stays within ±(2^53 − 1) and, for a customer, not below 0. No row
 * back means refused, and the caller explains why (see `postJournal`). On PostgreSQL the UPDATE takes the row lock
 * and, if it had to wait for one, checks the conditions again on the row as the other writer committed it.
 */
const applyLine = preparedWrite<LineParams, { balance: Int64; entry_count: Int64 }>(
  { amount: true, id: true, kind: true, org_id: true, mode: true, currency: true },
  (db, p) =>
    db
      .updateTable('ledger_accounts')
      .set({ balance: sql`balance + ${p.amount}`, entry_count: sql`entry_count + 1` })
      .where('id', '=', p.id)
      .where('org_id', '=', p.org_id)
      .where('mode', '=', p.mode)
      .where('kind', '=', p.kind)
      .where('currency', '=', p.currency)
      .where('status', '=', 'active')
      .where(sql<boolean>`balance + ${p.amount} between ${sql.raw(`-${MAX_AMOUNT} and ${MAX_AMOUNT}`)}`)
      .where(sql<boolean>`(kind = 'system' or balance + ${p.amount} >= 0)`)
      .returning(['balance', 'entry_count']),
);

/**
 * Posts one journal inside the caller's write transaction: the journal row, each line's guarded balance update (in
 * ascending account id order, the one order every writer takes ledger rows in, so PostgreSQL never deadlocks) and
 * its entries. The guarded update is the check: a movement that is allowed, the common case, reads nothing first.
 *
 * When a line is refused, `explain` is called: it reads the accounts (under their locks on PostgreSQL) and throws
 * the error the client should see (not found, closed, frozen, another currency, not enough funds). If it finds
 * nothing wrong, a concurrent write changed the row in between (PostgreSQL only), and the line is tried once more,
 * now under the lock. A refusal nobody can explain is a bug, never a client error; so is a journal that does not
 * balance. The CHECK constraints on ledger_accounts are the last line of defence behind all of this.
 */
export async function postJournal(
  trx: Trx,
  journal: LedgerJournalsTable,
  lines: Line[],
  explain: () => Promise<void> = async () => {},
): Promise<Posted[]> {
  assertBalanced(lines);
  await insertJournal(trx, journal);
  const entries: LedgerEntriesTable[] = [];
  for (const line of [...lines].sort((a, b) => (a.accountId < b.accountId ? -1 : 1))) {
    const apply = async () =>
      (
        await applyLine(trx, {
          amount: line.amount,
          id: line.accountId,
          kind: line.kind,
          org_id: journal.org_id,
          mode: journal.mode,
          currency: journal.currency,
        })
      ).rows[0];
    let row = await apply();
    if (row === undefined) {
      await explain();
      row = await apply();
    }
    if (row === undefined) throw new Error(`ledger: line on ${line.accountId} refused, and nothing explains why`);
    entries.push({
      id: newId('txn'),
      journal_id: journal.id,
      account_id: line.accountId,
      amount: line.amount,
      balance_after: row.balance,
      account_seq: row.entry_count,
      created_at: journal.created_at,
    });
  }
  await insertEntries(trx, entries);
  return entries.map((entry) => ({
    entryId: entry.id,
    accountId: entry.account_id,
    amount: Number(entry.amount),
    balanceAfter: toAmount(entry.balance_after),
  }));
}
