import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { type Clock, storedTime } from '../kit/time.ts';
import { deleteOlderThan } from './idempotency.repository.ts';

/**
 * Deletes keys older than `ttlMs`, in batches of `batch` rows, each its own short write, yielding to requests
 * between batches; at most `maxBatches` per run, so one run is bounded however large the backlog.
 */
export async function purgeExpired(database: Database, clock: Clock, ttlMs: number, batch = 500, maxBatches = 100) {
  const cutoff = storedTime(new Date(clock().getTime() - ttlMs));
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const deleted = await database.write((trx) => deleteOlderThan(trx, cutoff, batch));
    total += deleted;
    if (deleted < batch) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}

/** Runs purgeExpired every `intervalMs`; returns the function that stops it. */
export function startPurge(
  database: Database,
  clock: Clock,
  ttlMs: number,
  intervalMs: number,
  log: FastifyBaseLogger,
) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(database, clock, ttlMs)
      .then((n) => n > 0 && log.info({ purged: n }, 'idempotency keys purged'))
      .catch((error: unknown) => log.warn({ err: error }, 'idempotency purge failed; will retry'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
