import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { prepared, preparedSend } from '../../db/prepared.ts';
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
 * pending transfer's hold lives at most 30 days, so only those made in the 30 days before count (`since`): the index
 * `transfers_holds_idx` walks that window, never the account's whole history. A payment's hold has no expiry (it ends
 * when the payment settles or ends unsettled): those made before the window are `paymentHeldBefore`'s.
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
      // A hold with neither an end nor an expiry (a payment's, still open) holds at every later instant.
      .where(sql<string>`coalesce(resolved_at, expires_at, '9999-12-31')`, '>=', p.before),
);

/**
 * What payments' holds made before the window of `heldBefore` still held just before `before`: their transfers not
 * resolved by then. The index `transfers_payment_holds_idx` (by sender and end, payments only) reads the open ones and
 * those ended after `before`, not the account's history.
 */
export const paymentHeldBefore = prepared<
  { account_id: string; before: string; since: string },
  { held: Int64 | null }
>({ account_id: true, before: true, since: true }, (db, p) =>
  db
    .selectFrom('transfers')
    .select(sql<Int64 | null>`sum(amount)`.as('held'))
    .where('from_account_id', '=', p.account_id)
    .where('payment_id', 'is not', null)
    .where((eb) => eb.or([eb('resolved_at', 'is', null), eb('resolved_at', '>=', p.before)]))
    .where('created_at', '<', p.since),
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

/** What the account's next movement may not be earlier than: its last entry's time and its seal (ledger/time.ts). */
export const nextMovementFloor = prepared<
  { id: string },
  { last_entry_at: string | null; sealed_before: string | null }
>({ id: true }, (db, p) =>
  db.selectFrom('ledger_accounts').select(['last_entry_at', 'sealed_before']).where('id', '=', p.id),
);

/**
 * Seals the account's moments before `before`: no later movement of it takes an earlier time (ledger/time.ts). An
 * UPDATE of its ledger row, so on PostgreSQL it waits for the movement that holds the row's lock, and the movements
 * after it read the seal under that lock; on SQLite the single writer runs it between two writes. A seal only grows.
 */
export const sealBefore = preparedSend<{ id: string; before: string }>({ id: true, before: true }, (db, p) =>
  db
    .updateTable('ledger_accounts')
    .set({ sealed_before: p.before })
    .where('id', '=', p.id)
    .where((eb) => eb.or([eb('sealed_before', 'is', null), eb('sealed_before', '<', p.before)])),
);
