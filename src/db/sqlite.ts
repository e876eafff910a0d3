import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, sql } from 'kysely';
import type { Database, Db } from './database.ts';
import { type CommitStats, groupCommit } from './group-commit.ts';
import { listeners } from './listeners.ts';
import { migrateToLatest } from './migrate.ts';
import { registerReader, sqliteDialect } from './node-sqlite.ts';
import { SqliteTransaction } from './sqlite-transaction.ts';
import type { Tables } from './tables.ts';

function connect(path: string, role: 'writer' | 'reader'): DatabaseSync {
  const native = new DatabaseSync(path);
  // WAL lets the reader run beside the writer; synchronous=FULL fsyncs the WAL on every commit, so an
  // acknowledged write survives power loss, not just a process crash.
  native.exec('PRAGMA journal_mode = WAL');
  native.exec('PRAGMA synchronous = FULL');
  native.exec('PRAGMA busy_timeout = 5000');
  native.exec('PRAGMA foreign_keys = ON');
  // Each write of a group commit runs in a savepoint, and SQLite copies every page a savepoint changes into a
  // sub-journal, a temporary file once it passes 64 KiB: with a batch of writes per commit, that file was a large
  // share of the statements' time (bench/floor.ts, bench/FINDINGS.md). In memory it stays; it lives only until COMMIT.
  native.exec('PRAGMA temp_store = MEMORY');
  // The reader must never write: every write goes through the group commit on the writer.
  if (role === 'reader') native.exec('PRAGMA query_only = ON');
  return native;
}

/**
 * Embedded SQLite: one writer connection behind the group commit, and one reader connection so that reads (the key
 * lookup of every request among them) never queue behind an open write transaction. `:memory:` has no file to
 * share, so there the reader reads the writer's connection.
 */
export function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const writerNative = connect(path, 'writer');
  const readerNative = path === ':memory:' ? writerNative : connect(path, 'reader');
  const writer = new SqliteTransaction(writerNative);
  const reader: Db = new Kysely<Tables>({ dialect: sqliteDialect(readerNative) });
  registerReader(reader, readerNative);
  const commits = listeners<CommitStats>();
  const pipeline = groupCommit(writer, commits.emit);
  return {
    singleWriter: true,
    db: reader,
    write: pipeline.write,
    migrate: (sets) => migrateToLatest(writer, sets),
    onCommit: commits.add,
    async checkDurability() {
      const mode = String(Object.values(writerNative.prepare('PRAGMA journal_mode').get() ?? {})[0]);
      const sync = Number(Object.values(writerNative.prepare('PRAGMA synchronous').get() ?? {})[0]);
      if (path !== ':memory:' && mode !== 'wal') throw new Error(`SQLite journal_mode is ${mode}, not wal`);
      if (sync !== 2) throw new Error(`SQLite synchronous is ${sync}, not 2 (FULL): a commit would not be durable`);
    },
    async ping() {
      try {
        await sql`select 1`.execute(reader);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await pipeline.close();
      await reader.destroy();
      await writer.destroy();
      // Kysely closes a connection only if it ever used it; a request arriving later must meet a closed database.
      for (const native of [readerNative, writerNative]) if (native.isOpen) native.close();
    },
  };
}
