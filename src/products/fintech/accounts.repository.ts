import type { Db, Trx } from '../../db/database.ts';
import { type Cursor, pageOf } from '../../db/keyset.ts';
import type { Principal } from '../../platform/keys/principal.ts';
import type { AccountsTable } from './tables.ts';

type Executor = Db | Trx;

export async function insertAccount(db: Executor, row: AccountsTable): Promise<void> {
  await db.insertInto('accounts').values(row).execute();
}

/** An account visible to the principal: its org, its mode. Anything else is as if it never existed. */
export function findAccount(db: Executor, owner: Principal, id: string): Promise<AccountsTable | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
}

/** One keyset page of the owner's accounts (see pageOf). */
export function pageAccounts(
  db: Executor,
  owner: Principal,
  take: number,
  cursor: Cursor | undefined,
): Promise<AccountsTable[]> {
  return pageOf(
    db.selectFrom('accounts').selectAll().where('org_id', '=', owner.orgId).where('mode', '=', owner.mode),
    take,
    cursor,
  ).execute();
}
