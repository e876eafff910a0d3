import type { Kysely, Migration } from 'kysely';
import type { CommitStats, WriteOptions } from './sqlite/group-commit.ts';
import type { Tables } from './tables.ts';
import type { WriteTransaction } from './transaction.ts';

export { isDatabaseUnavailable } from './errors.ts';
export type { CommitStats, WriteOptions } from './sqlite/group-commit.ts';

/**
 * A handle for reads. On SQLite it reads connections of its own, so a read never waits for the writer, and (in the
 * server) it shows only durable commits (db/sqlite/durable-reads.ts).
 */
export type Db = Kysely<Tables>;

/**
 * The handle a write runs on: its own transaction (PostgreSQL) or its savepoint in a shared one (SQLite), with what
 * the backends do differently as its methods (transaction.ts). Only `Database.write` makes one, and every function
 * that writes takes a `Trx`, so the compiler refuses a write on the read handle. A `Trx` reads too: a function that
 * only reads takes `Db`, and accepts either.
 */
export type Trx = WriteTransaction;

/**
 * The database, whichever backend: reads on `db`, every write through `write`, the one write pipeline. A write's
 * promise settles only after its commit is durable, so whatever is answered from it has been stored.
 */
export interface Database {
  /**
   * One write at a time, in one process, committed in the order they ran (SQLite): a number drawn in a write is its
   * commit order, and no other process writes. False (PostgreSQL): writes run at once, from many processes.
   */
  singleWriter: boolean;
  db: Db;
  /** Runs `work` in one transaction (a savepoint of a group commit on SQLite); commits, then resolves. */
  write<T>(work: (trx: Trx) => Promise<T>, options?: WriteOptions): Promise<T>;
  /** Applies the pending ones of these migrations (see db/migrate.ts); returns the names it applied. */
  migrate(sets: Record<string, Migration>[]): Promise<string[]>;
  /**
   * Undefined when every commit an answer could show is durable; otherwise a promise that they will be. On SQLite a
   * commit is visible to reads a moment before its sync finishes (db/sqlite/wal-sync.ts), so an answer built from a
   * read waits for this before it leaves; PostgreSQL makes a commit visible only once durable (always undefined). A
   * commit of request-log entries alone (`WriteOptions.requestLogOnly`) counts only when `showsRequestLog`: for the
   * request log's own answers (docs/internals.md#durable-commits-off-the-event-loop).
   */
  settled(showsRequestLog?: boolean): Promise<void> | undefined;
  /**
   * `settled` for an answer built only from reads on `db`: undefined when nothing those reads could show can be taken
   * back by a power loss. On SQLite reads run on durable snapshots (db/sqlite/durable-reads.ts), so there is nothing
   * to wait for unless none was free to run on; PostgreSQL: always undefined.
   */
  readsSettled(showsRequestLog?: boolean): Promise<void> | undefined;
  /**
   * SQLite: resolves once no checkpoint of the WAL is asked or running (db/sqlite/sqlite-checkpointer.ts). The
   * instruction count (bench/instructions.ts) waits for it between rounds, so that a checkpoint and its answer come
   * between the same requests in every run. PostgreSQL has none to wait for.
   */
  checkpointed?(): Promise<void>;
  /** Called after every durable commit with what it cost (the app's /metrics observes it). */
  onCommit(listener: (stats: CommitStats) => void): void;
  /** Throws, with a line an operator can act on, when the database would not keep acknowledged writes. */
  checkDurability(): Promise<void>;
  /** True when the database answers a trivial query; backs /readyz. */
  ping(): Promise<boolean>;
  /** Lets queued writes finish, then closes every connection. */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /**
   * SQLite: whether this process checkpoints the WAL (db/sqlite/sqlite-checkpointer.ts, a thread of its own). The API
   * server does; a webhook delivery process, which writes the same file, leaves it to the server (default true).
   */
  checkpoints?: boolean;
  /** PostgreSQL connections per process. */
  poolSize?: number;
  /** Called with errors of idle pooled connections (a restarted server, a dropped network). */
  onIdleError?: (error: Error) => void;
}
