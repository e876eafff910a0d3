import type { Trx } from '../../../db/database.ts';
import { preparedLock, preparedWrite } from '../../../db/prepared.ts';
import type { Mode } from '../../../platform/auth/principal.ts';
import type { LedgerAccountsTable } from '../tables.ts';
import { type SystemPurpose, systemPurposeOf } from './system-account.ts';

/** A customer account, named by the request field that gave its id (each error's `param`). */
export interface CustomerRef {
  account: string;
  param: string;
}
/** One of the org's system accounts for the movement's currency and mode (made on first use): never shown. */
export interface SystemRef {
  system: SystemPurpose;
}
export type SideRef = CustomerRef | SystemRef;

/** A stored side (a transfer's `from_account_id`, `to_account_id`) as a movement names it again. */
export function sideRefOf(id: string, param: string): SideRef {
  const purpose = systemPurposeOf(id);
  return purpose === undefined ? { account: id, param } : { system: purpose };
}

/**
 * A ledger account as a movement of money reads it, under its lock: whether it may move money, its currency, its
 * balance, what pending transfers hold of it, how many entries it has (the next entry's `account_seq` follows), and
 * the earliest time its next movement may take (ledger/time.ts).
 */
export type Side = Pick<
  LedgerAccountsTable,
  'id' | 'kind' | 'status' | 'currency' | 'balance' | 'held' | 'entry_count' | 'last_entry_at' | 'sealed_before'
>;

const SIDE_COLUMNS = [
  'id',
  'kind',
  'status',
  'currency',
  'balance',
  'held',
  'entry_count',
  'last_entry_at',
  'sealed_before',
] as const;

type Scope = { a: string; b: string; org_id: string; mode: Mode };
const SCOPE = { a: true, b: true, org_id: true, mode: true } as const;

/**
 * Customer ledger accounts only: a system account's id never stands for a side, whatever an API caller sends. Locked
 * in ascending id order with FOR NO KEY UPDATE, the lock an UPDATE of a non-key column takes: FOR UPDATE would also
 * block the KEY SHARE lock a foreign key check takes (a transfer row naming the account), and deadlock.
 */
export const lockCustomerPair = preparedLock<Scope>(SCOPE, (db, p) =>
  db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('id', 'in', [p.a, p.b])
    .where('org_id', '=', p.org_id)
    .where('mode', '=', p.mode)
    .where('kind', '=', 'customer')
    .orderBy('id')
    .forNoKeyUpdate(),
);

/**
 * The same rows, locked the same way, and read by the statement that locks them (a movement's case): PostgreSQL
 * returns a row locked FOR … UPDATE at its newest committed version, also when it changed after the statement began
 * (READ COMMITTED: the lock waits for its holder, then re-reads the row and checks the conditions again), so the
 * balances read are those the previous holder committed, in one statement.
 */
const lockAndReadCustomerPair = preparedWrite<Scope, Side>(SCOPE, (db, p) =>
  db
    .selectFrom('ledger_accounts')
    .select(SIDE_COLUMNS)
    .where('id', 'in', [p.a, p.b])
    .where('org_id', '=', p.org_id)
    .where('mode', '=', p.mode)
    .where('kind', '=', 'customer')
    .orderBy('id')
    .forNoKeyUpdate(),
);

/**
 * The one or two customer accounts a movement of money touches, as the ledger holds them, locked on PostgreSQL in
 * ascending id order (the one order every writer takes ledger rows in, so no two writers deadlock), and read as the
 * previous lock holder committed them (one statement). Only ledger rows: `accounts` rows are locked by lifecycle
 * changes alone, which take them first. Missing from the map: no such account for this owner.
 */
export async function lockSides(
  trx: Trx,
  owner: { orgId: string; mode: Mode },
  ids: string[],
): Promise<Map<string, Side>> {
  if (ids.length < 1 || ids.length > 2) throw new Error('lockSides: a movement has one or two customer sides');
  const scope = { a: ids[0]!, b: ids[ids.length - 1]!, org_id: owner.orgId, mode: owner.mode };
  const { rows } = await lockAndReadCustomerPair(trx, scope);
  return new Map(rows.map((row) => [row.id, row]));
}

const lockSystem = preparedWrite<{ id: string }, Side>({ id: true }, (db, p) =>
  db
    .selectFrom('ledger_accounts')
    .select(SIDE_COLUMNS)
    .where('id', '=', p.id)
    .where('kind', '=', 'system')
    .forNoKeyUpdate(),
);

/**
 * A system funding account, locked on PostgreSQL. Every simulation of its org, mode and currency updates it, so its
 * lock is taken last, after the customer's, and held as briefly as the write allows.
 */
export async function lockSystemSide(trx: Trx, id: string): Promise<Side | undefined> {
  const { rows } = await lockSystem(trx, { id });
  return rows[0];
}
