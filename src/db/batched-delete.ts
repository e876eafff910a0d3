import type { Kysely } from 'kysely';
import type { Database, Trx } from './database.ts';

/** The tables a retention purge deletes from: rows with a text `id` and a stored `created_at`. */
type Aged = Kysely<Record<string, { id: string; created_at: string }>>;

/**
 * Deletes the oldest rows of `table` created before `cutoff`, up to about `limit` of them (all the rows that share
 * the last one's `created_at` go too), through an index on `created_at`; returns how many it deleted. One batch of a
 * retention purge (`purgeInBatches`), in the caller's write.
 */
export async function deleteCreatedBefore(
  trx: Trx,
  table: 'dashboard_sessions' | 'idempotency_keys',
  cutoff: string,
  limit: number,
): Promise<number> {
  const db = trx as unknown as Aged;
  const last = await db
    .selectFrom(table)
    .select('created_at')
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .offset(limit - 1)
    .limit(1)
    .executeTakeFirst();
  const result = await db
    .deleteFrom(table)
    .where('created_at', '<', cutoff)
    .where('created_at', '<=', last?.created_at ?? cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes up to `limit` of the oldest rows of `table` created before `cutoff`, walking its primary key of
 * time-sortable ids (`idBelow`: the first id minted at `cutoff`, so that the walk stops there), after `beforeDelete`
 * has removed what refers to them; returns how many it deleted. One batch of a retention purge, in the caller's write.
 */
export async function deleteIdsBefore(
  trx: Trx,
  table: 'events' | 'request_logs',
  bounds: { cutoff: string; idBelow: string },
  limit: number,
  beforeDelete?: (trx: Trx, ids: string[]) => Promise<void>,
): Promise<number> {
  const db = trx as unknown as Aged;
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('id', '<', bounds.idBelow)
    .where('created_at', '<', bounds.cutoff)
    .orderBy('id')
    .limit(limit)
    .execute();
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return 0;
  await beforeDelete?.(trx, ids);
  await db.deleteFrom(table).where('id', 'in', ids).execute();
  return ids.length;
}

/** Deletes up to `limit` rows created before `cutoff`; returns how many it deleted. */
export type DeleteBatch = (trx: Trx, cutoff: string, limit: number) => Promise<number>;

/**
 * Retention: deletes what was created before `cutoff` in batches of `batch` rows, each a short write of its own,
 * yielding to requests between them; at most `maxBatches` per run, so one run is bounded however large the backlog.
 */
export async function purgeInBatches(
  database: Database,
  cutoff: string,
  deleteBatch: DeleteBatch,
  batch = 500,
  maxBatches = 100,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const deleted = await database.write((trx) => deleteBatch(trx, cutoff, batch));
    total += deleted;
    if (deleted < batch) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}
