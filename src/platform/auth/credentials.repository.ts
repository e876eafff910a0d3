import type { Db, Trx } from '../../db/database.ts';
import { prepared, preparedSend } from '../../db/prepared.ts';
import type { ApiKeysTable } from './tables.ts';

// Compiled once: each cache miss of verify.ts (every key once a second under load) built it with Kysely.
const byHash = prepared<{ secret_hash: string }, ApiKeysTable>({ secret_hash: true }, (db, p) =>
  db.selectFrom('api_keys').selectAll().where('secret_hash', '=', p.secret_hash),
);

/** The stored keys, as authentication reads them: by the hash of a presented key, or by id (a session's key). */
export async function findKeyByHash(db: Db, secretHash: string): Promise<ApiKeysTable | undefined> {
  return (await byHash(db, { secret_hash: secretHash })).rows[0];
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

// Compiled once: built by Kysely on every flush, this was the only query building left in a server's steady state,
// and V8 compiled Kysely's builder again at each flush (bench/FINDINGS.md, 2026-11-28).
const touch = preparedSend<{ id: string; at: string }>({ id: true, at: true }, (db, p) =>
  db
    .updateTable('api_keys')
    .set({ last_used_at: p.at })
    .where('id', '=', p.id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', p.at)])),
);

/**
 * Moves last_used_at forward (never back: another process may have written a later time). Issued, not awaited: a
 * failure fails the write (usage.ts keeps the batch for the next).
 */
export function touchKey(trx: Trx, id: string, at: string): void {
  touch(trx, { id, at });
}
