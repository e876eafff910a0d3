import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { storedTime } from '../kit/time.ts';
import { touchKey } from './credentials.repository.ts';

/** When each key was last used, kept in memory and written in one batch per interval. */
export interface KeyUsage {
  record(keyId: string, atMs: number): void;
  /** Writes what is pending now (tests; shutdown). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `last_used_at` may lag (docs/api.md#list--get-v1api_keys--200 allows up to a minute): writing it on every request
 * would turn every read into a write. Uses are collected per key (the latest wins) and written every `intervalMs` in
 * one transaction, so an active key costs one small UPDATE per interval however busy it is. A failed batch is kept for
 * the next.
 */
export function keyUsageRecorder(database: Database, log: FastifyBaseLogger, intervalMs = 30_000): KeyUsage {
  let pending = new Map<string, number>();
  const flush = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      await database.write(async (trx) => {
        for (const [id, atMs] of batch) touchKey(trx, id, storedTime(new Date(atMs)));
      });
    } catch (error) {
      log.warn({ err: error }, 'key usage: last_used_at not written; retrying with the next batch');
      for (const [id, atMs] of batch) if (!pending.has(id)) pending.set(id, atMs);
    }
  };
  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();
  return {
    record: (keyId, atMs) => void pending.set(keyId, atMs),
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
