import type { Db } from '../../db/database.ts';
import type { AccountsTable } from '../../db/tables.ts';
import type { Trx } from '../../db/write.ts';
import type { Principal } from '../../platform/api-keys.service.ts';

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

/**
 * One keyset page, newest first. Ids are time-sortable and unique, so `id` alone is a total order and a
 * page boundary can never skip or repeat a row. `older` walks towards older ids, otherwise towards newer.
 * Returns up to `take` rows in the order of travel: newest first when walking older, oldest first otherwise.
 */
export async function pageAccounts(db: Executor, owner: Principal, take: number, cursor?: { id: string; older: boolean }): Promise<AccountsTable[]> {
  let query = db.selectFrom('accounts').selectAll().where('org_id', '=', owner.orgId).where('mode', '=', owner.mode);
  if (cursor === undefined || cursor.older) {
    if (cursor) query = query.where('id', '<', cursor.id);
    return query.orderBy('id', 'desc').limit(take).execute();
  }
  return query.where('id', '>', cursor.id).orderBy('id', 'asc').limit(take).execute();
}
