import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database, DatabaseOptions, Trx } from './database.ts';
import type { CommitStats } from './group-commit.ts';
import { listeners } from './listeners.ts';
import { migrateToLatest } from './migrate.ts';
import type { Tables } from './tables.ts';

/** Values under which PostgreSQL may lose an acknowledged commit. */
const NOT_DURABLE: Record<string, string[]> = { fsync: ['off'], synchronous_commit: ['off', 'local'] };

/**
 * PostgreSQL: a pool; each write its own transaction (PostgreSQL's own group commit batches the WAL flushes of
 * concurrent commits). Every write reports its transaction and COMMIT timings like SQLite's group commit does.
 */
export function openPostgres(url: string, options: DatabaseOptions): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // Fail fast when the server is gone, so that a request gets its 503 in seconds, not minutes.
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection that dies must not take the process with it; the pool replaces it on next use.
  pool.on('error', (error) => options.onIdleError?.(error));
  // The pool listens for errors only on idle clients. A client checked out when its socket dies (a query in flight,
  // or a transaction between queries) emits 'error' too, besides failing its query; unheard, that would end the
  // process. Background work (webhook delivery) makes a checked-out client at such a moment likely.
  pool.on('connect', (client) => client.on('error', (error) => options.onIdleError?.(error)));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  const commits = listeners<CommitStats>();
  return {
    dialect: 'postgres',
    db,
    async write<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
      const started = performance.now();
      const trx = await db.startTransaction().execute();
      let result: T;
      try {
        result = await work(trx);
      } catch (error) {
        await trx
          .rollback()
          .execute()
          .catch(() => undefined); // a broken connection has rolled back already
        throw error;
      }
      const committing = performance.now();
      await trx.commit().execute();
      const done = performance.now();
      commits.emit({
        batchSize: 1,
        transactionSeconds: (done - started) / 1000,
        commitSeconds: (done - committing) / 1000,
      });
      return result;
    },
    migrate: (sets) => migrateToLatest(db, sets),
    onCommit: commits.add,
    async checkDurability() {
      for (const [setting, bad] of Object.entries(NOT_DURABLE)) {
        const { rows } = await sql<{ value: string }>`select current_setting(${setting}) as value`.execute(db);
        const value = rows[0]?.value ?? '';
        if (bad.includes(value))
          throw new Error(`PostgreSQL ${setting} is ${value}: an acknowledged commit could be lost`);
      }
    },
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    close: () => db.destroy(),
  };
}
