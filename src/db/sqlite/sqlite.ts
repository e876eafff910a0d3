import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, sql } from 'kysely';
import type { Database, Db } from '../database.ts';
import { listeners } from '../listeners.ts';
import { migrateToLatest } from '../migrate.ts';
import type { Tables } from '../tables.ts';
import { type CommitDisk, type CommitStats, groupCommit } from './group-commit.ts';
import { registerReader, sqliteDialect } from './node-sqlite.ts';
import { startCheckpointer } from './sqlite-checkpointer.ts';
import { SqliteTransaction } from './sqlite-transaction.ts';
import { unsafeNoWalSync, walSync } from './wal-sync.ts';

function connect(path: string, role: 'writer' | 'reader'): DatabaseSync {
  const native = new DatabaseSync(path);
  // WAL lets the reader run beside the writer. Every acknowledged write survives power loss, not just a process
  // crash: the writer's COMMIT leaves the WAL's fsync to the syncer on libuv's pool (NORMAL, wal-sync.ts), and
  // its checkpoints to the checkpointer's thread (sqlite-checkpointer.ts), so neither runs on the event loop.
  // `:memory:` has no disk to sync.
  native.exec('PRAGMA journal_mode = WAL');
  native.exec(`PRAGMA synchronous = ${role === 'writer' && path !== ':memory:' ? 'NORMAL' : 'FULL'}`);
  if (role === 'writer') native.exec('PRAGMA wal_autocheckpoint = 0');
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

/** The syncer and the checkpointer of a database file (group-commit.ts's CommitDisk). */
function commitDisk(
  path: string,
  checkpoints: boolean,
): CommitDisk & { probe(): Promise<void>; checkpointed(): Promise<void>; close(): Promise<void> } {
  const sync = walSync(`${path}-wal`, unsafeNoWalSync());
  const checkpointer = checkpoints
    ? startCheckpointer(path, (message) => {
        process.emitWarning(`SQLite checkpoint failed: ${message}`, 'PlinthCheckpoint');
      })
    : undefined;
  return {
    sync,
    beforeBatch: () => checkpointer?.beforeBatch(),
    afterCommit: () => checkpointer?.afterCommit(),
    // At start-up: the WAL file can be synced (a failure here is one an operator can act on before serving).
    probe: () => sync.durable(sync.committed()),
    checkpointed: () => checkpointer?.idle() ?? Promise.resolve(),
    async close() {
      await checkpointer?.close();
      sync.close();
    },
  };
}

/**
 * Embedded SQLite: one writer connection behind the group commit, and one reader connection so that reads (the key
 * lookup of every request among them) never queue behind an open write transaction. `:memory:` has no file to
 * share, so there the reader reads the writer's connection.
 */
export function openSqlite(path: string, checkpoints = true): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const writerNative = connect(path, 'writer');
  const readerNative = path === ':memory:' ? writerNative : connect(path, 'reader');
  const writer = new SqliteTransaction(writerNative);
  const reader: Db = new Kysely<Tables>({ dialect: sqliteDialect(readerNative) });
  registerReader(reader, readerNative);
  const commits = listeners<CommitStats>();
  const disk = path === ':memory:' ? undefined : commitDisk(path, checkpoints);
  const pipeline = groupCommit(writer, commits.emit, disk);
  return {
    singleWriter: true,
    db: reader,
    write: pipeline.write,
    migrate: (sets) => migrateToLatest(writer, sets),
    onCommit: commits.add,
    settled: (showsRequestLog) => disk?.sync.settled(showsRequestLog),
    checkpointed: () => disk?.checkpointed() ?? Promise.resolve(),
    async checkDurability() {
      const pragma = (name: string) => Object.values(writerNative.prepare(`PRAGMA ${name}`).get() ?? {})[0];
      const [mode, sync, autocheckpoint] = ['journal_mode', 'synchronous', 'wal_autocheckpoint'].map(pragma);
      if (path === ':memory:') return;
      if (mode !== 'wal') throw new Error(`SQLite journal_mode is ${mode}, not wal`);
      // NORMAL leaves the WAL unsynced at COMMIT; the syncer syncs it before any answer (wal-sync.ts).
      if (sync !== 1 || disk === undefined) throw new Error(`SQLite synchronous is ${sync} without the WAL's syncer`);
      if (autocheckpoint !== 0) throw new Error('the SQLite writer would checkpoint on the event loop');
      await disk.probe();
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
      await disk?.close();
      await reader.destroy();
      await writer.destroy();
      // Kysely closes a connection only if it ever used it; a request arriving later must meet a closed database.
      for (const native of [readerNative, writerNative]) if (native.isOpen) native.close();
    },
  };
}
