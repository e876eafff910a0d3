import type { FastifyBaseLogger } from 'fastify';
import { purgeInBatches } from '../../db/batched-delete.ts';
import type { Database } from '../../db/database.ts';
import { runEvery } from '../kit/periodic.ts';
import { type Clock, cutoffBefore } from '../kit/time.ts';
import { deleteOlderThan } from './idempotency.repository.ts';

/** Deletes idempotency keys older than `ttlMs` (see db/batched-delete.ts). */
export function purgeExpired(database: Database, clock: Clock, ttlMs: number, batch = 500, maxBatches = 100) {
  return purgeInBatches(database, cutoffBefore(clock, ttlMs), deleteOlderThan, batch, maxBatches);
}

/** Runs purgeExpired every `intervalMs`; returns the function that stops it. */
export function startPurge(
  database: Database,
  clock: Clock,
  ttlMs: number,
  intervalMs: number,
  log: FastifyBaseLogger,
) {
  return runEvery(intervalMs, 'idempotency keys purge', log, () => purgeExpired(database, clock, ttlMs));
}
