import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { type Clock, storedTime } from '../kit/time.ts';
import { deleteEventsBefore } from './events.repository.ts';

/**
 * Retention: deletes events older than `retentionMs`, with their deliveries, in batches of `batch`, each a short
 * write of its own, yielding to requests between them; at most `maxBatches` per run.
 */
export async function purgeEvents(
  database: Database,
  clock: Clock,
  retentionMs: number,
  batch = 500,
  maxBatches = 100,
) {
  const cutoff = storedTime(new Date(clock().getTime() - retentionMs));
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const deleted = await database.write((trx) => deleteEventsBefore(trx, cutoff, batch));
    total += deleted;
    if (deleted < batch) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}

/** Runs purgeEvents every `intervalMs`; returns the function that stops it. */
export function startEventPurge(
  database: Database,
  clock: Clock,
  retentionMs: number,
  intervalMs: number,
  log: FastifyBaseLogger,
) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeEvents(database, clock, retentionMs)
      .then((n) => n > 0 && log.info({ purged: n }, 'events purged'))
      .catch((error: unknown) => log.warn({ err: error }, 'event purge failed; will retry'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
