import { deleteCreatedBefore } from '../db/batched-delete.ts';
import type { Db, Trx } from '../db/database.ts';
import type { OrgsTable } from '../platform/auth/tables.ts';
import type { DashboardSessionsTable } from './tables.ts';

export async function insertSession(trx: Trx, row: DashboardSessionsTable): Promise<void> {
  await trx.insertInto('dashboard_sessions').values(row).execute();
}

/** The session whose id hashes to `idHash`, while it has not expired. */
export function findSession(db: Db, idHash: string, now: string): Promise<DashboardSessionsTable | undefined> {
  return db
    .selectFrom('dashboard_sessions')
    .selectAll()
    .where('id_hash', '=', idHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteSession(trx: Trx, idHash: string): Promise<void> {
  await trx.deleteFrom('dashboard_sessions').where('id_hash', '=', idHash).execute();
}

/** Up to `limit` sessions created before `cutoff` (expired, since none lives longer), oldest first. */
export function deleteSessionsBefore(trx: Trx, cutoff: string, limit: number): Promise<number> {
  return deleteCreatedBefore(trx, 'dashboard_sessions', cutoff, limit);
}

export function findOrg(db: Db, id: string): Promise<OrgsTable | undefined> {
  return db.selectFrom('orgs').selectAll().where('id', '=', id).executeTakeFirst();
}
