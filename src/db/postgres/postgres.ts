import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
import pg from 'pg';
import type { Database, DatabaseOptions, Trx } from '../database.ts';
import { isDatabaseUnavailable } from '../errors.ts';
import { listeners } from '../listeners.ts';
import { migrateToLatest } from '../migrate.ts';
import type { CommitStats } from '../sqlite/group-commit.ts';
import type { Tables } from '../tables.ts';
import { PgTransaction } from './pg-transaction.ts';
import { beginPgWrite, namedIfCompiledOnce } from './pg-write.ts';

const CONNECT_TIMEOUT_MS = 3000;
const POOL_WAIT_TIMEOUT_MS = 15_000;

/** pg's Client with its own connect timeout: the pool hands each client the pool's options, queue bound included. */
class FastFailingClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/** Each pooled connection's write transaction, made on its first write. */
const transactions = new WeakMap<pg.PoolClient, PgTransaction>();

function transactionOf(client: pg.PoolClient): PgTransaction {
  let trx = transactions.get(client);
  if (trx === undefined) {
    trx = new PgTransaction();
    transactions.set(client, trx);
  }
  return trx;
}

/**
 * The pool as Kysely's read handle uses it: each client's queries go out by name when they are statements compiled
 * once (`namedIfCompiledOnce`, pg-write.ts); one wrapper per pooled client, which Kysely keeps its connection by.
 */
function namingPool(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapper = wrappers.get(client);
    if (wrapper === undefined) {
      wrapper = {
        query: ((text: unknown, values?: unknown[]) =>
          typeof text === 'string'
            ? client.query(namedIfCompiledOnce(text, values))
            : client.query(text as pg.Submittable)) as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
      wrappers.set(client, wrapper);
    }
    return wrapper;
  };
  return { connect: async () => wrap(await pool.connect()), end: () => pool.end() };
}

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
    // Statements go on the wire without waiting for the answers before them (see pg-write.ts).
    pipeline: true,
    // Two waits, two bounds. Connecting fails fast when the server is gone, so that a request gets its 503 in
    // seconds, not minutes (CONNECT_TIMEOUT_MS, above). Waiting for a free connection of a healthy pool is no
    // outage: sharing the 3 s bound, a storm of 1,000 connections on a busy machine got half its answers as 503.
    connectionTimeoutMillis: POOL_WAIT_TIMEOUT_MS,
    Client: FastFailingClient,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection that dies must not take the process with it; the pool replaces it on next use.
  pool.on('error', (error) => options.onIdleError?.(error));
  // The pool hears a client's 'error' only while it is idle. One that dies checked out (mid-query, mid-transaction,
  // or between a webhook worker's queries) emitted it to nobody, which crashed the process (found by
  // test/campaigns/outages.test.ts). Its query fails by itself (a 503), and the pool discards it when released.
  pool.on('connect', (client) => client.on('error', (error) => options.onIdleError?.(error)));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: namingPool(pool) }) });
  const commits = listeners<CommitStats>();
  return {
    singleWriter: false,
    db,
    async write<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
      const started = performance.now();
      const client = await pool.connect();
      const trx = transactionOf(client);
      const write = beginPgWrite(client);
      trx.hold(write);
      let result: T;
      let committing: number;
      try {
        result = await work(trx as Trx);
        committing = performance.now();
        await write.commit();
      } catch (error) {
        trx.hold(null);
        await write.rollback();
        // A connection that broke under the write is not given back to the pool.
        client.release(isDatabaseUnavailable(error) ? (error as Error) : undefined);
        throw error;
      }
      trx.hold(null);
      client.release();
      const done = performance.now();
      commits.emit({
        batchSize: 1,
        transactionSeconds: (done - started) / 1000,
        commitSeconds: (done - committing) / 1000,
        roundTrips: write.trips,
        statements: write.statements,
      });
      return result;
    },
    migrate: (sets) => migrateToLatest(db, sets),
    onCommit: commits.add,
    settled: () => undefined, // a commit is visible only once its WAL record is flushed (synchronous_commit=on)
    readsSettled: () => undefined,
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
