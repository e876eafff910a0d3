import type { Db, Trx } from '../../db/database.ts';
import { type Cursor, pageOf } from '../../db/keyset.ts';
import { preparedInsert } from '../../db/prepared.ts';
import type { Principal } from '../../platform/keys/principal.ts';
import type { TransfersTable } from './tables.ts';

const insertRow = preparedInsert('transfers', {
  id: true,
  org_id: true,
  mode: true,
  from_account_id: true,
  to_account_id: true,
  amount: true,
  currency: true,
  description: true,
  status: true,
  created_at: true,
});

export async function insertTransfer(trx: Trx, row: TransfersTable): Promise<void> {
  await insertRow(trx, row);
}

export function findTransfer(db: Db, owner: Principal, id: string): Promise<TransfersTable | undefined> {
  return db
    .selectFrom('transfers')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
}

/** One keyset page of the owner's transfers, optionally only those from or to one account. */
export function pageTransfers(
  db: Db,
  owner: Principal,
  take: number,
  cursor: Cursor | undefined,
  accountId: string | undefined,
): Promise<TransfersTable[]> {
  let query = db.selectFrom('transfers').selectAll().where('org_id', '=', owner.orgId).where('mode', '=', owner.mode);
  if (accountId !== undefined)
    query = query.where((eb) => eb.or([eb('from_account_id', '=', accountId), eb('to_account_id', '=', accountId)]));
  return pageOf(query, take, cursor).execute();
}
