import type { Database, Trx } from '../../db/database.ts';
import { type Clock, storedTime } from './time.ts';

/** Deletes up to `limit` rows created before `cutoff`; returns how many it deleted. */
export type DeleteBatch = (trx: Trx, cutoff: string, limit: number) => Promise<number>;

/**
 * Retention: deletes what is older than `keepMs` in batches of `batch` rows, each a short write of its own,
 * yielding to requests between them; at most `maxBatches` per run, so one run is bounded however large the backlog.
 */
export async function purgeOlderThan(
  database: Database,
  clock: Clock,
  keepMs: number,
  deleteBatch: DeleteBatch,
  batch = 500,
  maxBatches = 100,
): Promise<number> {
  const cutoff = storedTime(new Date(clock().getTime() - keepMs));
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const deleted = await database.write((trx) => deleteBatch(trx, cutoff, batch));
    total += deleted;
    if (deleted < batch) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}
