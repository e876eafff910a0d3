import type { ExpressionBuilder } from 'kysely';
import type { Db, Trx } from '../../db/database.ts';
import type { Cursor } from '../../db/keyset.ts';
import { pageOwned } from '../../db/owned.ts';
import { prepared, preparedLock } from '../../db/prepared.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import type { Tables } from '../../db/tables.ts';
import { type Metadata, whereMetadata } from '../../modules/metadata/index.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { type CreatedRange, createdWithin } from '../../platform/http/created-filter.ts';
import { lockCustomerPair } from './ledger/sides.ts';
import type { AccountStatus, AccountsTable, Int64 } from './tables.ts';

/** An account with its balance, which lives in its ledger account (same id). */
/** An account with its ledger account's balance and what pending transfers hold of it (same id). */
export type AccountRow = AccountsTable & { balance: Int64; held: Int64 };

const insertAccountRow = preparedInsert('accounts', {
  id: true,
  org_id: true,
  mode: true,
  type: true,
  country: true,
  currency: true,
  status: true,
  status_reason: true,
  status_note: true,
  status_actor: true,
  closed_at: true,
  kyb_legal_name: true,
  kyb_ein: true,
  kyb_ein_last4: true,
  metadata: true,
  nickname: true,
  created_at: true,
});
const insertLedgerAccount = preparedInsert('ledger_accounts', {
  id: true,
  org_id: true,
  mode: true,
  currency: true,
  kind: true,
  status: true,
  balance: true,
  held: true,
  entry_count: true,
  last_entry_at: true,
  sealed_before: true,
  created_at: true,
});

export function insertAccount(trx: Trx, row: AccountsTable): void {
  insertAccountRow(trx, row);
  insertLedgerAccount(trx, {
    id: row.id,
    org_id: row.org_id,
    mode: row.mode,
    currency: row.currency,
    kind: 'customer',
    status: row.status,
    balance: 0,
    held: 0,
    entry_count: 0,
    last_entry_at: null,
    sealed_before: null,
    created_at: row.created_at,
  });
}

// A subquery, not a join: keyset pages order by a bare `id`, which a join would make ambiguous.
const ledgerColumn = (eb: ExpressionBuilder<Tables, 'accounts'>, column: 'balance' | 'held') =>
  eb
    .selectFrom('ledger_accounts')
    .select(`ledger_accounts.${column}`)
    .whereRef('ledger_accounts.id', '=', 'accounts.id')
    .$narrowType<Record<typeof column, Int64>>()
    .as(column);
const balanceOf = (eb: ExpressionBuilder<Tables, 'accounts'>) => [
  ledgerColumn(eb, 'balance'),
  ledgerColumn(eb, 'held'),
];

function withBalance(db: Db) {
  return db
    .selectFrom('accounts')
    .selectAll('accounts')
    .select(balanceOf)
    .$narrowType<{ balance: Int64; held: Int64 }>();
}

const selectAccount = prepared<{ id: string; org_id: string; mode: Principal['mode'] }, AccountRow>(
  { id: true, org_id: true, mode: true },
  (db, p) =>
    withBalance(db)
      .where('accounts.id', '=', p.id)
      .where('accounts.org_id', '=', p.org_id)
      .where('accounts.mode', '=', p.mode),
);

/** An account visible to the principal: its org, its mode. Anything else is as if it never existed. */
export async function findAccount(db: Db, owner: Principal, id: string): Promise<AccountRow | undefined> {
  return (await selectAccount(db, { id, org_id: owner.orgId, mode: owner.mode })).rows[0];
}

/**
 * The accounts a lifecycle change is about to change, with their balances, read inside its transaction. On
 * PostgreSQL their rows are first locked in ascending id order, then their ledger accounts' rows in the same order
 * (every writer that takes both takes `accounts` first; transfers take only ledger rows), so no two writers can
 * deadlock, and a close decides on a balance no transfer can change before it commits. The balances are read by a
 * later statement, whose fresh snapshot (READ COMMITTED) sees what the previous lock holder committed. `owner` null:
 * the operator. The lock is FOR NO KEY UPDATE, the one an UPDATE of a non-key column takes: FOR UPDATE would also
 * block the KEY SHARE lock that a foreign key check takes on the account (a transfer row naming it), so a transfer
 * holding the ledger row the lifecycle change waits for would wait on the lifecycle change in turn: a deadlock.
 */
export async function lockAccounts(trx: Trx, owner: Principal | null, ids: string[]): Promise<Map<string, AccountRow>> {
  if (owner !== null && (ids.length === 1 || ids.length === 2)) {
    // The API's case (a freeze, unfreeze or close of one account): compiled once, the id asked for as `in (a, a)`.
    const pair = { a: ids[0]!, b: ids[ids.length - 1]!, org_id: owner.orgId, mode: owner.mode };
    // Issued, not awaited: the read below runs once both locks are granted (one round trip on PostgreSQL).
    lockPair(trx, pair);
    lockCustomerPair(trx, pair);
    const { rows } = await selectPair(trx, pair);
    return new Map(rows.map((row) => [row.id, row]));
  }
  // The operator's case (any number of accounts, rare): the same locks, built for the ids given.
  let lock = trx.selectFrom('accounts').select('id').where('id', 'in', ids);
  if (owner !== null) lock = lock.where('org_id', '=', owner.orgId).where('mode', '=', owner.mode);
  const locked = (await lock.orderBy('id').forNoKeyUpdate().execute()).map((row) => row.id);
  if (locked.length > 0)
    await trx
      .selectFrom('ledger_accounts')
      .select('id')
      .where('id', 'in', locked)
      .orderBy('id')
      .forNoKeyUpdate()
      .execute();
  let query = withBalance(trx).where('accounts.id', 'in', ids);
  if (owner !== null) query = query.where('accounts.org_id', '=', owner.orgId).where('accounts.mode', '=', owner.mode);
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.id, row]));
}

type Pair = { a: string; b: string; org_id: string; mode: Principal['mode'] };
const PAIR = { a: true, b: true, org_id: true, mode: true } as const;
const lockPair = preparedLock<Pair>(PAIR, (db, p) =>
  db
    .selectFrom('accounts')
    .select('id')
    .where('id', 'in', [p.a, p.b])
    .where('org_id', '=', p.org_id)
    .where('mode', '=', p.mode)
    .orderBy('id')
    .forNoKeyUpdate(),
);
const selectPair = prepared<Pair, AccountRow>(PAIR, (db, p) =>
  withBalance(db)
    .where('accounts.id', 'in', [p.a, p.b])
    .where('accounts.org_id', '=', p.org_id)
    .where('accounts.mode', '=', p.mode),
);

export async function updateStatus(
  trx: Trx,
  id: string,
  change: Pick<AccountsTable, 'status' | 'status_reason' | 'status_note' | 'status_actor' | 'closed_at'>,
): Promise<void> {
  await trx.updateTable('accounts').set(change).where('id', '=', id).execute();
  // The ledger's copy, which every balance update guards on (ledger/post.ts), in the same transaction.
  await trx.updateTable('ledger_accounts').set({ status: change.status }).where('id', '=', id).execute();
}

export interface AccountFilters {
  status?: AccountStatus | undefined;
  created: CreatedRange;
  metadata?: Metadata | undefined;
}

/** One keyset page of the owner's accounts (see `pageOwned`), each with its balances, narrowed by the filters. */
export async function pageAccounts(
  db: Db,
  owner: Principal,
  take: number,
  cursor: Cursor | undefined,
  filters: AccountFilters,
): Promise<AccountRow[]> {
  const rows = await pageOwned(db, 'accounts', owner, take, cursor, (query) => {
    let narrowed = createdWithin(query.select(balanceOf), 'accounts', 'acct', filters.created);
    if (filters.status !== undefined) narrowed = narrowed.where('status', '=', filters.status);
    return whereMetadata(narrowed, owner, 'accounts', filters.metadata);
  });
  return rows as AccountRow[];
}
