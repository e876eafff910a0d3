import { sql } from 'kysely';
import type { Trx } from '../../../db/database.ts';
import { preparedSend } from '../../../db/prepared.ts';
import { preparedInsert, preparedInsertRows } from '../../../db/prepared-insert.ts';
import { newId } from '../../../platform/kit/ids.ts';
import type { LedgerEntriesTable, LedgerJournalsTable } from '../tables.ts';
import { toAmount } from './amount.ts';
import type { Side } from './sides.ts';
import { earliestNext } from './time.ts';

export interface Line {
  /** The ledger account, as read under its lock (`lockSides`, `lockSystemSide`) by the caller, who checked it. */
  side: Side;
  /** Signed minor units: negative takes money out of the account. */
  amount: number;
  /** What a pending transfer held on this account and this posting releases (the whole hold, whatever is posted). */
  release?: number;
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
// One statement for the balance and the hold it releases (the constraint on balance − held holds after each), the
// entry count, and the time of the last entry.
const moveBalance = preparedSend<{ id: string; amount: number; release: number; at: string }>(
  { id: true, amount: true, release: true, at: true },
  (db, p) =>
    db
      .updateTable('ledger_accounts')
      .set({
        balance: sql`balance + ${p.amount}`,
        held: sql`held - ${p.release}`,
        entry_count: sql`entry_count + 1`,
        last_entry_at: p.at,
      })
      .where('id', '=', p.id),
);

/** A pending transfer's hold on its sender: `amount` > 0 holds, < 0 releases (a void, an expiry). */
export const changeHold = preparedSend<{ id: string; amount: number }>({ id: true, amount: true }, (db, p) =>
  db
    .updateTable('ledger_accounts')
    .set({ held: sql`held + ${p.amount}` })
    .where('id', '=', p.id),
);

/**
 * Posts one journal inside the caller's write: the journal row, each line's balance change (ascending account id,
 * the one order every writer takes ledger rows in) and its entry. The caller has locked and read every side and
 * checked that the movement is allowed: only `move` (move.ts) calls it, so nothing here decides.
 * Its time is never earlier than a side's last entry or seal (`movementTime`, time.ts), so each account's entries are
 * in time order as they are in ledger order, and no answer about a sealed moment changes. Each entry's
 * `balance_after` and `account_seq` follow from the side as read: exact, because the row stays locked (PostgreSQL) or
 * the writer is single (SQLite) until the commit. Behind that, the database refuses what must never happen: a
 * negative customer balance, a balance past ±(2^53 − 1), two entries with one `account_seq`. Every statement is
 * issued, not awaited: on PostgreSQL they travel with the rest of the write, in its last round trip.
 */
export function postJournal(trx: Trx, journal: LedgerJournalsTable, lines: Line[]): Posted[] {
  assertBalanced(lines);
  if (lines.some(({ side }) => earliestNext(side, journal.created_at) !== journal.created_at))
    throw new Error('ledger: a journal earlier than a side allows (take its time from movementTime)');
  insertJournal(trx, journal);
  const at = Date.parse(journal.created_at);
  const entries: LedgerEntriesTable[] = [];
  for (const { side, amount, release = 0 } of [...lines].sort((a, b) => (a.side.id < b.side.id ? -1 : 1))) {
    moveBalance(trx, { id: side.id, amount, release, at: journal.created_at });
    entries.push({
      id: newId('txn', at),
      journal_id: journal.id,
      account_id: side.id,
      amount,
      balance_after: toAmount(side.balance) + amount,
      account_seq: toAmount(side.entry_count) + 1,
      created_at: journal.created_at,
    });
  }
  insertEntries(trx, entries);
  return entries.map((entry) => ({
    entryId: entry.id,
    accountId: entry.account_id,
    amount: Number(entry.amount),
    balanceAfter: Number(entry.balance_after),
  }));
}
