import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import type { Int64 } from './tables.ts';

/**
 * The account's last entry before `before` (exclusive), in ledger order. Entries are in time order as in ledger order
 * (ledger/time.ts), so this is one seek of `ledger_entries_account_time_idx`, whatever the account's history.
 */
export const lastEntryBefore = prepared<{ account_id: string; before: string }, { id: string; balance_after: Int64 }>(
  { account_id: true, before: true },
  (db, p) =>
    db
      .selectFrom('ledger_entries')
      .select(['id', 'balance_after'])
      .where('account_id', '=', p.account_id)
      .where('created_at', '<', p.before)
      .orderBy('created_at', 'desc')
      .orderBy('account_seq', 'desc')
      .limit(1),
);

/**
 * What pending transfers out of the account held at the instant just before `before`: made before it, and not posted,
 * voided or expired by then (a hold ends at its `resolved_at`, or at its `expires_at` if nothing ended it sooner). A
 * hold lives at most 30 days, so only those made in the 30 days before count (`since`): the index
 * `transfers_holds_idx` walks that window, never the account's whole history.
 */
export const heldBefore = prepared<{ account_id: string; before: string; since: string }, { held: Int64 | null }>(
  { account_id: true, before: true, since: true },
  (db, p) =>
    db
      .selectFrom('transfers')
      .select(sql<Int64 | null>`sum(amount)`.as('held'))
      .where('from_account_id', '=', p.account_id)
      // A literal, not a parameter: a generic plan (a prepared statement's, from its sixth run on PostgreSQL) can use
      // the partial index only if the query states its predicate (`pending = 1`) itself.
      .where('pending', '=', sql.lit(1))
      .where('created_at', '>=', p.since)
      .where('created_at', '<', p.before)
      .where(sql<string>`coalesce(resolved_at, expires_at)`, '>=', p.before),
);

type Period = { account_id: string; from: string; to: string };
/** Count and sum of the account's credits and debits in [from, to), by the same index. */
export const periodTotals = prepared<
  Period,
  { credits: Int64 | null; credit_count: Int64; debits: Int64 | null; debit_count: Int64 }
>({ account_id: true, from: true, to: true }, (db, p) =>
  db
    .selectFrom('ledger_entries')
    .select([
      sql<Int64 | null>`sum(case when amount > 0 then amount else 0 end)`.as('credits'),
      sql<Int64>`sum(case when amount > 0 then 1 else 0 end)`.as('credit_count'),
      sql<Int64 | null>`sum(case when amount < 0 then -amount else 0 end)`.as('debits'),
      sql<Int64>`sum(case when amount < 0 then 1 else 0 end)`.as('debit_count'),
    ])
    .where('account_id', '=', p.account_id)
    .where('created_at', '>=', p.from)
    .where('created_at', '<', p.to),
);

export async function balanceBefore(db: Db, accountId: string, before: string) {
  const { rows } = await lastEntryBefore(db, { account_id: accountId, before });
  return rows[0];
}
