import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, sql } from 'kysely';
import type { Database, Db } from '../database.ts';
import { listeners } from '../listeners.ts';
import { migrateToLatest } from '../migrate.ts';
import type { Tables } from '../tables.ts';
import { DurableReads } from './durable-reads.ts';
import { durableReadsDialect } from './durable-reads-dialect.ts';
import { type CommitDisk, type CommitStats, groupCommit } from './group-commit.ts';
import { registerReader, sqliteDialect } from './node-sqlite.ts';
import { startCheckpointer } from './sqlite-checkpointer.ts';
import { SqliteTransaction } from './sqlite-transaction.ts';
import { type SyncObserver, unsafeNoWalSync, type WalSync, walSync } from './wal-sync.ts';

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

/**
 * The syncer and the checkpointer of a database file (group-commit.ts's CommitDisk), and the reads on durable snapshots
 * (durable-reads.ts) when `snapshots` opens readers for them.
 */
function commitDisk(
  path: string,
  checkpoints: boolean,
  snapshots: (sync: WalSync) => DurableReads | undefined,
): CommitDisk & {
  reads: DurableReads | undefined;
  probe(): Promise<void>;
  checkpointed(): Promise<void>;
  close(): Promise<void>;
} {
  let reads: DurableReads | undefined;
  const observer: SyncObserver = {
    syncing: (target) => reads?.syncing(target),
    synced: (target, ok) => reads?.synced(target, ok),
  };
  const sync = walSync(`${path}-wal`, unsafeNoWalSync(), observer);
  reads = snapshots(sync);
  const checkpointer = checkpoints
    ? startCheckpointer(path, (message) => {
        process.emitWarning(`SQLite checkpoint failed: ${message}`, 'PlinthCheckpoint');
      })
    : undefined;
  return {
    sync,
    reads,
    // The WAL starts over only once no reader holds a snapshot in it: the hold's checkpoint waits for the reads.
    beforeBatch: () => checkpointer?.beforeBatch(() => reads?.released()),
    afterCommit: () => checkpointer?.afterCommit(),
    beforeCommit: () => reads?.beforeCommit(),
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
 * Embedded SQLite: one writer connection behind the group commit, and reader connections so that reads (the key
 * lookup of every request among them) never queue behind an open write transaction. In the process that checkpoints
 * (the API server), reads run on durable snapshots (durable-reads.ts): they never wait for a sync and never show a
 * commit before it is durable. A process that does not (a webhook delivery process) reads the newest state on one
 * reader, as its snapshots would keep the server's WAL from starting over; its answers are its own durable writes.
 * `:memory:` has no file to share, so there the reader reads the writer's connection.
 */
export function openSqlite(path: string, checkpoints = true): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const writerNative = connect(path, 'writer');
  const writer = new SqliteTransaction(writerNative);
  const commits = listeners<CommitStats>();
  const disk =
    path === ':memory:'
      ? undefined
      : commitDisk(path, checkpoints, (sync) =>
          checkpoints ? new DurableReads(() => connect(path, 'reader'), sync) : undefined,
        );
  const reads = disk?.reads;
  const readerNative = reads !== undefined ? undefined : path === ':memory:' ? writerNative : connect(path, 'reader');
  const reader: Db = new Kysely<Tables>({
    dialect: reads !== undefined ? durableReadsDialect(reads) : sqliteDialect(readerNative!),
  });
  if (reads !== undefined) registerReader(reader, () => reads.forRead());
  else registerReader(reader, () => (readerNative!.isTransaction ? undefined : readerNative));
  const pipeline = groupCommit(writer, commits.emit, disk);
  return {
    singleWriter: true,
    db: reader,
    write: pipeline.write,
    migrate: (sets) => migrateToLatest(writer, sets),
    onCommit: commits.add,
    settled: (showsRequestLog) => disk?.sync.settled(showsRequestLog),
    readsSettled: (showsRequestLog) =>
      reads !== undefined ? reads.readsSettled(showsRequestLog ?? false) : disk?.sync.settled(showsRequestLog),
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
      reads?.close();
      for (const native of [readerNative, writerNative]) if (native?.isOpen) native.close();
    },
  };
}
