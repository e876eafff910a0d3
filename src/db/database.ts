import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { kyselySqliteDatabase } from './node-sqlite.ts';
import type { Tables } from './tables.ts';

export type Db = Kysely<Tables>;

export interface Database {
  db: Db;
  dialect: 'sqlite' | 'postgres';
  /** True when the database answers a trivial query; backs /readyz. */
  ping(): Promise<boolean>;
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

function withPing(db: Db, dialect: Database['dialect']): Database {
  return {
    db,
    dialect,
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

const CONNECT_TIMEOUT_MS = 3000;
const POOL_WAIT_TIMEOUT_MS = 15_000;

/** pg's Client with its own connect timeout: the pool hands each client the pool's options, queue bound included. */
class FastFailingClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

function openPostgres(url: string, options: DatabaseOptions): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // Two waits, two bounds. Connecting fails fast when the server is gone, so that a request gets its 503 in
    // seconds, not minutes (CONNECT_TIMEOUT_MS, above). Waiting for a free connection of a healthy pool is no
    // outage: sharing the 3 s bound, a storm of 1,000 connections on a busy machine got half its answers as 503.
    connectionTimeoutMillis: POOL_WAIT_TIMEOUT_MS,
    Client: FastFailingClient,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection that dies must not take the process with it; the pool replaces it on next use.
  pool.on('error', (error) => options.onIdleError?.(error));
  // The pool hears a client's 'error' only while it is idle. One that dies checked out (mid-query, mid-transaction)
  // emitted it to nobody, which crashed the process (found by test/campaigns/outages.test.ts). Its query fails by
  // itself (a 503), and the pool discards a client that is no longer queryable when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return withPing(new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) }), 'postgres');
}

function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const native = new DatabaseSync(path);
  // WAL lets readers run beside the writer; synchronous=FULL fsyncs the WAL on every commit, so an
  // acknowledged write survives power loss, not just a process crash.
  native.exec('PRAGMA journal_mode = WAL');
  native.exec('PRAGMA synchronous = FULL');
  native.exec('PRAGMA busy_timeout = 5000');
  native.exec('PRAGMA foreign_keys = ON');
  return withPing(
    new Kysely<Tables>({ dialect: new SqliteDialect({ database: kyselySqliteDatabase(native) }) }),
    'sqlite',
  );
}

// SQLite primary result codes that mean "the database cannot serve now", not "this request is wrong":
// BUSY, LOCKED, READONLY, IOERR, CORRUPT, FULL, CANTOPEN. CORRUPT is what reads give once the disk fails under
// an open database (after one IOERR, test/campaigns/sqlite-disk.test.ts saw only "disk image is malformed").
const SQLITE_UNAVAILABLE = new Set([5, 6, 8, 10, 11, 13, 14]);

// PostgreSQL SQLSTATE classes and codes that mean "cannot serve now": connection exceptions (08), insufficient
// resources (53), operator intervention such as a shutdown or restart (57P01–57P03), and serialization
// failures under load (40001, 40P01) which a retry resolves.
const PG_UNAVAILABLE = /^(08|53|57P0[1-3]|40001|40P01)/;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const PG_POOL_MESSAGES = new RegExp(
  `^(${[
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'timeout expired', // pg's own connect timeout (FastFailingClient)
    'Client has encountered a connection error',
    'Cannot use a pool after calling end',
  ].join('|')})`,
);

/** True for errors that mean the database is unreachable or unable to write: answered with 503, not 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown };
  if (
    typeof e.code === 'string' &&
    (NETWORK_CODES.has(e.code) || (/^[0-9A-Z]{5}$/.test(e.code) && PG_UNAVAILABLE.test(e.code)))
  )
    return true;
  if (error instanceof Error && PG_POOL_MESSAGES.test(error.message)) return true;
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') return SQLITE_UNAVAILABLE.has(e.errcode & 0xff);
  if (e.code === 'ERR_INVALID_STATE') return true; // node:sqlite: "database is not open"
  // Kysely after destroy(), i.e. a request that arrives while the process closes its database.
  return error instanceof Error && error.message === 'driver has already been destroyed';
}
