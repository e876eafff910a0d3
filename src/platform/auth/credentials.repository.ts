import type { Db, Trx } from '../../db/database.ts';
import type { ApiKeysTable } from './tables.ts';

/** The stored keys, as authentication reads them: by the hash of a presented key, or by id (a session's key). */
export function findKeyByHash(db: Db, secretHash: string): Promise<ApiKeysTable | undefined> {
  return db.selectFrom('api_keys').selectAll().where('secret_hash', '=', secretHash).executeTakeFirst();
}

export function findKeyById(db: Db, id: string): Promise<ApiKeysTable | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
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
