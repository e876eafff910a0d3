import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { kyselySqliteDatabase } from './node-sqlite.ts';
import type { Tables } from './tables.ts';

export type Db = Kysely<Tables>;

export interface Database {
  db: Db;
  /** True when the database answers a trivial query; backs /readyz. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Opens the database named by DATABASE_URL (already validated by config). */
export function openDatabase(url: string): Database {
  if (!url.startsWith('sqlite:')) throw new Error(`unsupported DATABASE_URL scheme: ${url.split(':')[0]}`);
  return openSqlite(url.slice('sqlite:'.length));
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
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: kyselySqliteDatabase(native) }) });
  return {
    db,
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

// SQLite primary result codes that mean "the database cannot serve now", not "this request is wrong":
// BUSY, LOCKED, READONLY, IOERR, FULL, CANTOPEN.
const SQLITE_UNAVAILABLE = new Set([5, 6, 8, 10, 13, 14]);

/** True for errors that mean the database is unreachable or unable to write: answered with 503, not 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown };
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') return SQLITE_UNAVAILABLE.has(e.errcode & 0xff);
  if (e.code === 'ERR_INVALID_STATE') return true; // node:sqlite: "database is not open"
  // Kysely after destroy(), i.e. a request that arrives while the process closes its database.
  return error instanceof Error && error.message === 'driver has already been destroyed';
}
