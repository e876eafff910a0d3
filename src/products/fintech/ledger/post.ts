import { sql } from 'kysely';
import type { Trx } from '../../../db/database.ts';
import { prepared, preparedInsert, preparedInsertRows } from '../../../db/prepared.ts';
import { newId } from '../../../platform/kit/ids.ts';
import type { Int64, LedgerEntriesTable, LedgerJournalsTable } from '../tables.ts';
import { toAmount } from './amount.ts';

export interface Line {
  accountId: string;
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
/** A line's balance change, refused (no row) in another currency or when it would take a customer below zero. */
const applyLine = prepared<{ amount: number; id: string; currency: string }, { balance: Int64; entry_count: Int64 }>(
  { amount: true, id: true, currency: true },
  (db, p) =>
    db
      .updateTable('ledger_accounts')
      .set({ balance: sql`balance + ${p.amount}`, entry_count: sql`entry_count + 1` })
      .where('id', '=', p.id)
      .where('currency', '=', p.currency)
      .where(sql<boolean>`(kind = 'system' or balance + ${p.amount} >= 0)`)
      .returning(['balance', 'entry_count']),
);

/**
 * Posts one journal inside the caller's write transaction: the journal row, each line's balance update (in
 * ascending account id order, the one lock order every writer uses, so PostgreSQL never deadlocks) and its entry.
 * The caller has already checked status and funds under its locks; the guarded update below is the second line of
 * defence and the CHECK constraint on ledger_accounts the third.
 */
export async function postJournal(trx: Trx, journal: LedgerJournalsTable, lines: Line[]): Promise<Posted[]> {
  assertBalanced(lines);
  await insertJournal(trx, journal);
  const entries: LedgerEntriesTable[] = [];
  for (const line of [...lines].sort((a, b) => (a.accountId < b.accountId ? -1 : 1))) {
    const row = (await applyLine(trx, { amount: line.amount, id: line.accountId, currency: journal.currency })).rows[0];
    if (row === undefined) throw new Error(`ledger: line on ${line.accountId} refused (currency or funds)`);
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
