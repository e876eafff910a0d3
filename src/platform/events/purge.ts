import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { purgeEvery, purgeOlderThan } from '../kit/retention.ts';
import type { Clock } from '../kit/time.ts';
import { deleteEventsBefore } from './events.repository.ts';

/** Retention: deletes events older than `retentionMs`, with their deliveries (see kit/retention.ts). */
export function purgeEvents(database: Database, clock: Clock, retentionMs: number, batch = 500, maxBatches = 100) {
  return purgeOlderThan(database, clock, retentionMs, deleteEventsBefore, batch, maxBatches);
}

/** Runs purgeEvents every `intervalMs`; returns the function that stops it. */
export function startEventPurge(
  database: Database,
  clock: Clock,
  retentionMs: number,
  intervalMs: number,
  log: FastifyBaseLogger,
) {
  return purgeEvery(intervalMs, () => purgeEvents(database, clock, retentionMs), log, 'events');
}
