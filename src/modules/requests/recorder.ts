import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import { type Database, isDatabaseUnavailable } from '../../db/database.ts';
import { bufferShares } from './buffer-shares.ts';
import { recorderMetrics } from './recorder-metrics.ts';
import { insertRequestLogs } from './requests.repository.ts';
import type { RequestLogsTable } from './tables.ts';

/** Rows a batch takes at most; a buffer this full is written at once instead of at the next tick. */
export const BATCH_ROWS = 256;
/**
 * Characters of bodies (request, answer, error detail) the buffer may hold per row of its capacity: they are what can
 * be large. A typical entry holds 330–550 (docs/api.md#the-request-log, "What an entry costs").
 */
const BODY_BYTES_PER_ROW = 1024;

export interface RequestRecorder {
  /** Keeps an entry for the next batch; never waits and never throws. Dropped (and counted) when the buffer is full. */
  record(entry: RequestLogsTable): void;
  /** Writes everything recorded so far (tests; shutdown). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left; entries recorded afterwards are dropped. */
  stop(): Promise<void>;
}

export interface RecorderOptions {
  database: Database;
  log: FastifyBaseLogger;
  registry: Registry;
  /** Entries held in memory at most, written or waiting (REQUEST_LOG_BUFFER); bodies at most 1 KiB each on average. */
  capacity: number;
  /** How long an entry may wait for its batch (REQUEST_LOG_FLUSH_MS). */
  flushMs: number;
}

/**
 * The request log is written off the request's path: `record` appends to an in-process buffer, and one batch at a
 * time is written in one write of the write pipeline (a multi-row insert: on PostgreSQL pipelined with its COMMIT, on
 * SQLite a savepoint in the next group commit), `flushMs` after the first entry waiting, or at once when
 * `BATCH_ROWS` are waiting. Memory is bounded: past `capacity` entries (or their bodies' share of bytes), held
 * whether waiting or being written, an entry is dropped and counted (`plinth_request_log_dropped_total`, and by
 * organisation); a request never waits for, or fails because of, its entry. What is dropped is an organisation's
 * that holds more than its share (buffer-shares.ts): an entry of one within its share takes the place of the newest
 * waiting entry of one over it, so one tenant's flood cannot drop another's entries. A batch the database could not take now (unavailable) is kept for
 * the next try; one it refused for another reason is dropped and counted. A crash loses what was not yet written:
 * at most the last `flushMs` of entries, never any of the data the requests wrote.
 */
export function requestRecorder(options: RecorderOptions): RequestRecorder {
  const { database, log, capacity, flushMs } = options;
  const byteCapacity = capacity * BODY_BYTES_PER_ROW;
  const metrics = recorderMetrics(options.registry, () => held);
  const shares = bufferShares(capacity, byteCapacity);
  let waiting: RequestLogsTable[] = [];
  let held = 0; // entries waiting or being written
  let heldBytes = 0;
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> | null = null;
  let stopped = false;
  let lastTx = 0;
  let warned = false;

  const bytesOf = (entry: RequestLogsTable) =>
    (entry.body?.length ?? 0) + (entry.response_body?.length ?? 0) + (entry.error_detail?.length ?? 0);

  const writeBatch = async (batch: RequestLogsTable[]): Promise<void> => {
    try {
      // Only the request log's own answers wait for this write's sync: a read's entry is not what its answer shows
      // (docs/internals.md#durable-commits-off-the-event-loop).
      const only = { requestLogOnly: true };
      await database.write(async (trx) => {
        // SQLite numbers its batches (see requests.repository.ts); one batch is written at a time, in order.
        lastTx = Math.max(lastTx + 1, Date.now());
        insertRequestLogs(trx, batch, database.singleWriter ? lastTx : null);
      }, only);
      metrics.written.inc(batch.length);
      warned = false;
    } catch (error) {
      if (isDatabaseUnavailable(error) && !stopped) {
        if (!warned) log.warn({ err: error }, 'request log: a batch was not written; it is kept for the next try');
        warned = true;
        waiting = batch.concat(waiting);
        return;
      }
      log.error({ err: error, entries: batch.length }, 'request log: a batch was refused and dropped');
      for (const entry of batch) metrics.drop(entry.org_id, 'write_failed');
    }
    for (const entry of batch) release(entry);
  };

  const release = (entry: RequestLogsTable) => {
    const bytes = bytesOf(entry);
    heldBytes -= bytes;
    held--;
    shares.remove(entry.org_id, bytes);
  };

  const fits = (bytes: number) => held < capacity && heldBytes + bytes <= byteCapacity;

  /** Makes room by dropping the newest waiting entries of organisations over their share; false when it cannot. */
  const evictFor = (bytes: number, active: number): boolean => {
    for (let i = waiting.length - 1; i >= 0 && !fits(bytes); i--) {
      const entry = waiting[i]!;
      if (!shares.over(entry.org_id, active)) continue;
      waiting.splice(i, 1);
      release(entry);
      metrics.drop(entry.org_id, 'buffer_full');
    }
    return fits(bytes);
  };

  /**
   * Writes what was waiting when it began, a batch at a time, and goes on while a full batch waits; stops early when
   * the database cannot take a batch now (it is kept, and tried again after `flushMs`).
   */
  const drain = async (): Promise<void> => {
    let due = waiting.length;
    while (waiting.length > 0 && (due > 0 || waiting.length >= BATCH_ROWS)) {
      const batch = waiting.splice(0, BATCH_ROWS);
      due -= batch.length;
      const before = held;
      await writeBatch(batch);
      if (held === before) break;
    }
  };

  const flush = (): Promise<void> => {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    const run = (writing ?? Promise.resolve()).then(drain);
    const settled = run.finally(() => {
      if (writing === settled) writing = null;
      if (waiting.length > 0 && !stopped) schedule();
    });
    writing = settled;
    return settled;
  };

  const schedule = () => {
    if (timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, flushMs);
    timer.unref();
  };

  return {
    record(entry) {
      const bytes = bytesOf(entry);
      if (stopped) return metrics.drop(entry.org_id, 'stopped');
      if (!fits(bytes)) {
        const active = shares.activeWith(entry.org_id);
        if (!shares.within(entry.org_id, bytes, active) || !evictFor(bytes, active))
          return metrics.drop(entry.org_id, 'buffer_full');
      }
      waiting.push(entry);
      held++;
      heldBytes += bytes;
      shares.add(entry.org_id, bytes);
      if (waiting.length >= BATCH_ROWS && writing === null) void flush();
      else schedule();
    },
    flush,
    async stop() {
      await flush();
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await flush(); // anything recorded while the last batch was being written
    },
  };
}
