import type { Db, Trx } from '../db/database.ts';
import type { OrgsTable } from '../platform/keys/tables.ts';
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
export async function deleteSessionsBefore(trx: Trx, cutoff: string, limit: number): Promise<number> {
  const last = await trx
    .selectFrom('dashboard_sessions')
    .select('created_at')
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .offset(limit - 1)
    .limit(1)
    .executeTakeFirst();
  const result = await trx
    .deleteFrom('dashboard_sessions')
    .where('created_at', '<', cutoff)
    .where('created_at', '<=', last?.created_at ?? cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function findOrg(db: Db, id: string): Promise<OrgsTable | undefined> {
  return db.selectFrom('orgs').selectAll().where('id', '=', id).executeTakeFirst();
}
