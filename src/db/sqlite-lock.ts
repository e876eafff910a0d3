import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * SQLite mode is one server process per database file: a second `npm start` on the same file is refused here.
 * (Several processes could share a WAL database, but every write would queue on one file lock across them,
 * and the rate limits would be per process; that deployment is PostgreSQL's.) The operator CLI is not a server
 * and runs beside it. A lock left by a process that died (kill -9) is taken over. Returns the release function.
 */
export function lockSqliteForServer(databasePath: string): () => void {
  const lockPath = `${databasePath}.server.lock`;
  mkdirSync(dirname(databasePath), { recursive: true }); // the first start on a new machine: ./data does not exist yet
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(lockPath, 'utf8') === String(process.pid)) unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
        throw new Error(
          `another Plinth server (pid ${holder}) serves ${databasePath}; SQLite mode runs one server process (use PostgreSQL for more)`,
        );
      }
      unlinkSync(lockPath); // stale: its process is gone
    }
  }
  throw new Error(`could not lock ${databasePath}`);
}
