import type { Db } from '../../db/database.ts';
import type { Cursor } from '../../db/keyset.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { type CreatedRange, createdWithin } from '../../platform/http/created-filter.ts';
import type { Int64, SourceType } from './tables.ts';

/** A customer account's entry with its journal: everything a transaction shows. */
export interface TransactionRow {
  id: string;
  account_id: string;
  amount: Int64;
  balance_after: Int64;
  created_at: string;
  journal_id: string;
  currency: string;
  source_type: SourceType;
  description: string | null;
  mode: string;
}

// Only entries of customer accounts (the inner join with accounts) are transactions; system ones never show.
function transactions(db: Db, owner: Pick<Principal, 'orgId' | 'mode'>) {
  return db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_journals as j', 'j.id', 'e.journal_id')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .select([
      'e.id',
      'e.account_id',
      'e.amount',
      'e.balance_after',
      'e.created_at',
      'e.journal_id',
      'j.currency',
      'j.source_type',
      'j.description',
      'a.mode',
    ])
    .where('a.org_id', '=', owner.orgId)
    .where('a.mode', '=', owner.mode);
}

export function findTransaction(db: Db, owner: Principal, id: string): Promise<TransactionRow | undefined> {
  return transactions(db, owner).where('e.id', '=', id).executeTakeFirst();
}

/**
 * One page of an account's transactions in ledger order (its entries' sequence), newest first. Ledger order, not
 * id order: on PostgreSQL two processes can draw ids out of commit order, but each account's sequence is taken
 * under its row lock.
 */
export function pageTransactions(
  db: Db,
  owner: Principal,
  accountId: string,
  take: number,
  cursor: Cursor | undefined,
  created: CreatedRange = {},
): Promise<TransactionRow[]> {
  let query = createdWithin(transactions(db, owner).where('e.account_id', '=', accountId), 'e', 'txn', created);
  if (cursor !== undefined) {
    const at = db.selectFrom('ledger_entries').select('account_seq').where('id', '=', cursor.id);
    query = query.where('e.account_seq', cursor.older ? '<' : '>', at);
  }
  const direction = cursor === undefined || cursor.older ? 'desc' : 'asc';
  return query.orderBy('e.account_seq', direction).limit(take).execute();
}

/** The transactions of these ids (`cli audit verify` checks them against their events). */
export function transactionsByIds(db: Db, owner: Pick<Principal, 'orgId' | 'mode'>, ids: string[]) {
  return transactions(db, owner).where('e.id', 'in', ids).execute();
}

/** Ids of the owner's transactions made at or after `since` (stored time), in id order. */
export async function transactionIdsSince(db: Db, owner: Pick<Principal, 'orgId' | 'mode'>, since: string) {
  const rows = await transactions(db, owner).where('e.created_at', '>=', since).orderBy('e.id').execute();
  return rows.map((r) => r.id);
}
