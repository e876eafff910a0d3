import { DatabaseClosedError } from './errors.ts';
import type { SqliteTransaction } from './sqlite-transaction.ts';

/** What one shared transaction cost; reported to whoever observes the database (the /metrics of the app). */
export interface CommitStats {
  /** Writes that shared the transaction (each in its own savepoint), including refused ones. */
  batchSize: number;
  /** From BEGIN to the end of COMMIT, seconds. */
  transactionSeconds: number;
  /** COMMIT alone, which with synchronous=FULL is the fsync of the WAL, seconds. */
  commitSeconds: number;
  /** PostgreSQL: the round trips the write waited for, its COMMIT's included (see pg-write.ts). */
  roundTrips?: number;
}

interface Job {
  work: (trx: SqliteTransaction) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Every write queued while one batch commits joins the next; a bound keeps one batch's latency in check. */
const MAX_BATCH = 512;

/**
 * Group commit for SQLite (one writer connection, one server process). The writes of concurrent requests share one
 * `BEGIN IMMEDIATE … COMMIT`, each inside its own savepoint, so one fsync acknowledges them all:
 *
 * 1. `write(work)` queues the work; a batch starts on the next turn of the event loop, so every request that
 *    arrived meanwhile joins it.
 * 2. Each work runs in turn on the writer (its reads see the batch's earlier writes). A work that throws rolls
 *    back its own savepoint and is refused; the others go on.
 * 3. After any error the transaction may be gone (SQLite rolls it back by itself on, e.g., a full disk): then no
 *    work of the batch can succeed, and every one of them is refused.
 * 4. COMMIT. Only then is any work's promise resolved (after the work it left for after its commit), so every
 *    success is answered after a durable commit; if COMMIT fails, every work of the batch is refused.
 *
 * A work must touch only the database through `trx`: awaiting anything else (the network, a timer) would hold the
 * whole batch. `close()` lets queued writes finish, then refuses new ones.
 */
export function groupCommit(trx: SqliteTransaction, observe: (stats: CommitStats) => void) {
  const { native } = trx;
  const queue: Job[] = [];
  let scheduled = false;
  let running: Promise<void> | null = null;
  let closed = false;

  const schedule = () => {
    if (scheduled || running !== null || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      running = runBatch(queue.splice(0, MAX_BATCH)).finally(() => {
        running = null;
        schedule();
      });
    });
  };

  // Refuses every job not yet answered, rolling back whatever is left of the transaction.
  const abandon = (jobs: Job[], error: unknown) => {
    try {
      if (native.isOpen && native.isTransaction) native.exec('ROLLBACK');
    } catch {
      // A dead disk can refuse the ROLLBACK too; the error to answer with is the one that ended the batch.
    }
    for (const job of jobs) job.reject(error);
  };

  async function runBatch(batch: Job[]): Promise<void> {
    const started = performance.now();
    const succeeded: [Job, unknown, (() => void)[]][] = [];
    let current = 0;
    try {
      native.exec('BEGIN IMMEDIATE');
      for (; current < batch.length; current++) {
        const job = batch[current]!;
        native.exec('SAVEPOINT write');
        try {
          const value = await job.work(trx);
          succeeded.push([job, value, trx.finishWrite()]);
          native.exec('RELEASE write');
        } catch (error) {
          trx.abandonWrite();
          if (!native.isTransaction) throw error; // the whole transaction is gone: nobody's write survives
          native.exec('ROLLBACK TO write');
          native.exec('RELEASE write');
          job.reject(error);
        }
      }
      const committing = performance.now();
      native.exec('COMMIT');
      const done = performance.now();
      observe({
        batchSize: batch.length,
        transactionSeconds: (done - started) / 1000,
        commitSeconds: (done - committing) / 1000,
      });
    } catch (error) {
      abandon([...succeeded.map(([job]) => job), ...batch.slice(current)], error);
      return;
    }
    for (const [job, value, committed] of succeeded) {
      for (const run of committed) run();
      job.resolve(value);
    }
  }

  return {
    write<T>(work: (trx: SqliteTransaction) => Promise<T>): Promise<T> {
      if (closed) return Promise.reject(new DatabaseClosedError());
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      });
    },
    /** Waits for queued and running batches, then refuses new writes. */
    async close(): Promise<void> {
      while (queue.length > 0 || running !== null || scheduled) {
        await (running ?? new Promise((resolve) => setImmediate(resolve)));
      }
      closed = true;
    },
  };
}
