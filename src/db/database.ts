import type { Kysely, Migration } from 'kysely';
import type { CommitStats } from './group-commit.ts';
import { openPostgres } from './postgres.ts';
import { openSqlite } from './sqlite.ts';
import type { Tables } from './tables.ts';

export { isDatabaseUnavailable } from './errors.ts';
export type { CommitStats } from './group-commit.ts';

/** A handle for reads. On SQLite it is a connection of its own, so a read never waits for the writer. */
export type Db = Kysely<Tables>;

declare const WRITE: unique symbol;
/**
 * The handle a write runs on: its own transaction (PostgreSQL) or its savepoint in a shared one (SQLite). Only
 * `Database.write` makes one (see `asTrx`), and every function that writes takes a `Trx`, so the compiler refuses a
 * write on the read handle. A `Trx` reads too: a function that only reads takes `Db`, and accepts either.
 */
export type Trx = Db & { readonly [WRITE]: true };

/** For the write pipelines only (sqlite.ts, postgres.ts): the transaction they opened, as the type writes take. */
export const asTrx = (transaction: Db): Trx => transaction as Trx;

/**
 * The database, whichever backend: reads on `db`, every write through `write`, the one write pipeline. A write's
 * promise settles only after its commit is durable, so whatever is answered from it has been stored.
 */
export interface Database {
  dialect: 'sqlite' | 'postgres';
  db: Db;
  /** Runs `work` in one transaction (a savepoint of a group commit on SQLite); commits, then resolves. */
  write<T>(work: (trx: Trx) => Promise<T>): Promise<T>;
  /** Applies the pending ones of these migrations (see db/migrate.ts); returns the names it applied. */
  migrate(sets: Record<string, Migration>[]): Promise<string[]>;
  /** Called after every commit with what it cost (the app's /metrics observes it). */
  onCommit(listener: (stats: CommitStats) => void): void;
  /** Throws, with a line an operator can act on, when the database would not keep acknowledged writes. */
  checkDurability(): Promise<void>;
  /** True when the database answers a trivial query; backs /readyz. */
  ping(): Promise<boolean>;
  /** Lets queued writes finish, then closes every connection. */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connections per process. */
  poolSize?: number;
  /** Called with errors of idle pooled connections (a restarted server, a dropped network). */
  onIdleError?: (error: Error) => void;
}

/** Opens the database named by DATABASE_URL (already validated by config). */
export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options);
  throw new Error(`unsupported DATABASE_URL scheme: ${url.split(':')[0]}`);
}
