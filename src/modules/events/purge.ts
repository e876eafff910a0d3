import type { FastifyBaseLogger } from 'fastify';
import { purgeInBatches } from '../../db/batched-delete.ts';
import type { Database, Trx } from '../../db/database.ts';
import { runEvery } from '../../platform/kit/periodic.ts';
import { type Clock, cutoffBefore } from '../../platform/kit/time.ts';
import { type BeforeEventsDeleted, deleteEventsBefore } from './events.repository.ts';

/** Retention: deletes events older than `retentionMs`, and first what refers to them (see db/batched-delete.ts). */
export function purgeEvents(
  database: Database,
  clock: Clock,
  retentionMs: number,
  beforeDelete: BeforeEventsDeleted,
  batch = 500,
  maxBatches = 100,
) {
  const deleteBatch = (trx: Trx, cutoff: string, limit: number) => deleteEventsBefore(trx, cutoff, limit, beforeDelete);
  return purgeInBatches(database, cutoffBefore(clock, retentionMs), deleteBatch, batch, maxBatches);
}

/** Runs purgeEvents every `intervalMs`; returns the function that stops it. */
export function startEventPurge(
  database: Database,
  clock: Clock,
  retentionMs: number,
  intervalMs: number,
  log: FastifyBaseLogger,
  beforeDelete: BeforeEventsDeleted,
) {
  return runEvery(intervalMs, 'events purge', log, () => purgeEvents(database, clock, retentionMs, beforeDelete));
}
