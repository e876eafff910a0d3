import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** The one file that names a database, whatever path reaches it: symlinks and relative segments resolved. */
function canonicalPath(databasePath: string): string {
  mkdirSync(dirname(databasePath), { recursive: true }); // the first start on a new machine: ./data does not exist
  if (existsSync(databasePath)) return realpathSync(databasePath);
  return join(realpathSync(dirname(databasePath)), basename(databasePath));
}

/**
 * SQLite mode is one server process per database file (its group commit and in-process rate limits assume it; more
 * processes are PostgreSQL's deployment). The guard is an exclusive SQLite lock on a file beside the database: a
 * POSIX record lock, which the kernel drops the moment the process dies, however it dies (kill -9 included, before
 * it is even reaped), so a restart straight after a crash always succeeds and no stale pid can refuse it. The lock
 * file is named after the database's real path, so a symlink or another relative path cannot let a second server in.
 * The operator CLI does not take it and runs beside the server. Returns the release function.
 */
export function lockSqliteForServer(databasePath: string): () => void {
  const lockPath = `${canonicalPath(databasePath)}.server-lock`;
  const lock = new DatabaseSync(lockPath);
  try {
    lock.exec('PRAGMA busy_timeout = 0');
    lock.exec('PRAGMA locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE'); // held until this process closes the file or dies
  } catch {
    lock.close();
    throw new Error(
      `another Plinth server already serves ${databasePath}; ` +
        'SQLite mode runs one server process per database (use PostgreSQL for more)',
    );
  }
  return () => lock.close();
}
