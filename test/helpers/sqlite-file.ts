import { copyFileSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

/**
 * Rows of `table` in a copy of the SQLite database file without its WAL: what checkpoints have put in the file. Null
 * when the copy cannot be read that way (no such table yet, or a copy torn by a checkpoint writing meanwhile).
 */
export function rowsInFileAlone(path: string, table: string): number | null {
  const copy = `${path}.alone`;
  try {
    copyFileSync(path, copy);
    const db = new DatabaseSync(copy, { readOnly: true });
    try {
      return Number(Object.values(db.prepare(`select count(*) from ${table}`).get()!)[0]);
    } finally {
      db.close();
    }
  } catch {
    return null;
  } finally {
    for (const file of [copy, `${copy}-wal`, `${copy}-shm`]) rmSync(file, { force: true });
  }
}
