import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { runEvery } from '../kit/periodic.ts';
import { purgeOlderThan } from '../kit/retention.ts';
import type { Clock } from '../kit/time.ts';
import { deleteOlderThan } from './idempotency.repository.ts';

/** Deletes idempotency keys older than `ttlMs` (see kit/retention.ts). */
export function purgeExpired(database: Database, clock: Clock, ttlMs: number, batch = 500, maxBatches = 100) {
  return purgeOlderThan(database, clock, ttlMs, deleteOlderThan, batch, maxBatches);
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
