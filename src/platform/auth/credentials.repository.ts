import type { Db, Trx } from '../../db/database.ts';
import type { ApiKeysTable } from './tables.ts';

/** The stored keys, as authentication reads them: by the hash of a presented key, or by id (a session's key). */
export function findKeyByHash(db: Db, secretHash: string): Promise<ApiKeysTable | undefined> {
  return db.selectFrom('api_keys').selectAll().where('secret_hash', '=', secretHash).executeTakeFirst();
}

export function findKeyById(db: Db, id: string): Promise<ApiKeysTable | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Which of these keys are still active (not revoked): the live event stream's check (docs/api.md#the-live-event-stream). */
export async function activeKeyIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('api_keys')
    .select('id')
    .where('id', 'in', ids)
    .where('revoked_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Moves last_used_at forward (never back: another process may have written a later time). */
export async function touchKey(trx: Trx, id: string, at: string): Promise<void> {
  await trx
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
    .execute();
}
