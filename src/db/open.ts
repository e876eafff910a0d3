import type { Database, DatabaseOptions } from './database.ts';
import { openPostgres } from './postgres/postgres.ts';
import { openSqlite } from './sqlite/sqlite.ts';

/** Opens the database named by DATABASE_URL (already validated by config). */
export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options.checkpoints ?? true);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options);
  throw new Error(`unsupported DATABASE_URL scheme: ${url.split(':')[0]}`);
}
