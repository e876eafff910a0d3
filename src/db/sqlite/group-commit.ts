import type { StatementSync } from 'node:sqlite';
import { DatabaseClosedError } from '../errors.ts';
import type { SqliteTransaction } from './sqlite-transaction.ts';
import type { WalSync } from './wal-sync.ts';

/** What one shared transaction cost; reported to whoever observes the database (the /metrics of the app). */
export interface CommitStats {
  /** Writes that shared the transaction (each in its own savepoint), including refused ones. */
  batchSize: number;
  /** From BEGIN to the end of COMMIT, seconds. */
  transactionSeconds: number;
  /** From COMMIT to the commit being durable (SQLite: the WAL's sync, wal-sync.ts), seconds. */
  commitSeconds: number;
  /** PostgreSQL: the round trips the write waited for, its COMMIT's included (see pg-write.ts). */
  roundTrips?: number;
  /** PostgreSQL: the statements the write sent, its BEGIN and COMMIT included. */
  statements?: number;
}

/** How a write is committed (`Database.write`'s options). */
export interface WriteOptions {
  /**
   * The write inserts request-log entries and nothing else (modules/requests/recorder.ts): until it is durable only the
   * request log's answers wait for it (`Database.settled`), not every read.
   */
  requestLogOnly?: boolean;
}

/**
 * What makes a commit durable and keeps the WAL short, off the event loop (a file database; `:memory:` has none):
 * the WAL's syncer (wal-sync.ts) and the checkpointer (sqlite-checkpointer.ts).
 */
export interface CommitDisk {
  sync: WalSync;
  /** Undefined, or what the next batch waits for before it begins: a checkpoint the WAL has grown to need. */
  beforeBatch(): Promise<void> | undefined;
  /** A batch committed: the checkpointer may have work. */
  afterCommit(): void;
  /** The batch is about to COMMIT (durable-reads.ts: reads keep seeing only durable commits). */
  beforeCommit?(): void;
}

interface Job {
  work: (trx: SqliteTransaction) => Promise<unknown>;
  /** Writes request-log entries only (WriteOptions). */
  requestLogOnly: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Every write queued while one batch commits joins the next; a bound keeps one batch's latency in check. */
const MAX_BATCH = 512;

/**
 * Group commit for SQLite (one writer connection, one server process). The writes of concurrent requests share one
 * `BEGIN IMMEDIATE … COMMIT`, each inside its own savepoint, so one sync acknowledges them all:
 *
 * 1. `write(work)` queues the work; a batch starts on the next turn of the event loop, so every request that
 *    arrived meanwhile joins it.
 * 2. Each work runs in turn on the writer (its reads see the batch's earlier writes). A work that throws rolls
 *    back its own savepoint and is refused; the others go on.
 * 3. After any error the transaction may be gone (SQLite rolls it back by itself on, e.g., a full disk): then no
 *    work of the batch can succeed, and every one of them is refused.
 * 4. COMMIT, then the next batch may begin. With a file, the commit is made durable off the event loop (the WAL's
 *    fdatasync on libuv's pool, wal-sync.ts): only once it is does any work's promise resolve (after the work it
 *    left for after its commit), so every success is answered after a durable commit; if COMMIT or its sync fails,
 *    every work of the batch is refused.
 *
 * A work must touch only the database through `trx`: awaiting anything else (the network, a timer) would hold the
 * whole batch. `close()` lets queued writes finish, then refuses new ones.
 */
export function groupCommit(trx: SqliteTransaction, observe: (stats: CommitStats) => void, disk?: CommitDisk) {
  const { native } = trx;
  // Each write's savepoint statements, parsed once rather than by exec() on every write (bench/FINDINGS.md).
  const [savepoint, release, rollbackTo] = ['SAVEPOINT write', 'RELEASE write', 'ROLLBACK TO write'].map((text) =>
    native.prepare(text),
  ) as [StatementSync, StatementSync, StatementSync];
  const queue: Job[] = [];
  let scheduled = false;
  let running: Promise<void> | null = null;
  let closed = false;
  const releasing = new Set<Promise<void>>(); // committed batches whose answers wait for their sync

  const schedule = () => {
    if (scheduled || running !== null || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const hold = disk?.beforeBatch();
      const batch = () => runBatch(queue.splice(0, MAX_BATCH));
      running = (hold === undefined ? batch() : hold.then(batch, batch)).finally(() => {
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
    let committing = started;
    const succeeded: [Job, unknown, (() => void)[]][] = [];
    let current = 0;
    try {
      native.exec('BEGIN IMMEDIATE');
      for (; current < batch.length; current++) {
        const job = batch[current]!;
        savepoint.run();
        try {
          const value = await job.work(trx);
          succeeded.push([job, value, trx.finishWrite()]);
          release.run();
        } catch (error) {
          trx.abandonWrite();
          if (!native.isTransaction) throw error; // the whole transaction is gone: nobody's write survives
          rollbackTo.run();
          release.run();
          job.reject(error);
        }
      }
      committing = performance.now();
      const failure = disk?.sync.failure();
      if (failure !== undefined) throw failure; // nothing is acknowledged once a sync failed (wal-sync.ts)
      disk?.beforeCommit?.();
      native.exec('COMMIT');
    } catch (error) {
      abandon([...succeeded.map(([job]) => job), ...batch.slice(current)], error);
      return;
    }
    const answer = () => {
      const done = performance.now();
      observe({
        batchSize: batch.length,
        transactionSeconds: (done - started) / 1000,
        commitSeconds: (done - committing) / 1000,
      });
      for (const [job, value, committed] of succeeded) {
        for (const run of committed) run();
        job.resolve(value);
      }
    };
    if (disk === undefined) return answer();
    // The next batch may begin at once; this one's answers wait, off the event loop, for its frames to be synced.
    disk.afterCommit();
    // A commit of request-log batches alone holds back only the answers of the request log (wal-sync.ts `settled`).
    const shown = succeeded.some(([job]) => !job.requestLogOnly);
    const durable = disk.sync.durable(disk.sync.committed(shown));
    durable.then(answer, (error: unknown) => {
      for (const [job] of succeeded) job.reject(error);
    });
    releasing.add(durable);
    durable.finally(() => releasing.delete(durable)).catch(() => undefined);
  }

  return {
    write<T>(work: (trx: SqliteTransaction) => Promise<T>, options?: WriteOptions): Promise<T> {
      if (closed) return Promise.reject(new DatabaseClosedError());
      const requestLogOnly = options?.requestLogOnly === true;
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, requestLogOnly, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      });
    },
    /** Waits for queued and running batches, then refuses new writes. */
    async close(): Promise<void> {
      while (queue.length > 0 || running !== null || scheduled) {
        await (running ?? new Promise((resolve) => setImmediate(resolve)));
      }
      closed = true;
      await Promise.allSettled([...releasing]);
    },
  };
}
