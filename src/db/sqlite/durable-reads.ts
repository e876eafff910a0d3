import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SqliteDatabase } from 'kysely';
import { DatabaseClosedError } from '../errors.ts';
import { kyselySqliteDatabase } from './node-sqlite.ts';

/**
 * Reads that never wait for a sync and never show what a power loss can take back
 * (docs/internals.md#durable-commits-off-the-event-loop, "Reads read durable snapshots").
 *
 * On SQLite a commit is visible to other connections as soon as its COMMIT returns, a sync before it is durable
 * (wal-sync.ts). Reads here run on a *durable snapshot* instead: a read transaction held open on a reader connection
 * of its own, which shows exactly the commits that are on stable storage:
 *
 * - When a sync of the WAL starts (`syncing`), a spare reader opens a read transaction: its snapshot is exactly the
 *   commits that sync makes durable (each was written to the WAL before the sync began).
 * - When that sync ends (`synced`), and before any of its waiters (the answers of its writes) is released, reads
 *   switch to that snapshot and the one before it is let go. So a client that was answered for a write reads it.
 * - With every commit durable there is nothing to hide: the snapshot is let go and reads see the newest state
 *   (`live`), which lets the WAL start over (the checkpointer's hold waits for `released`). Just before the writer's
 *   next COMMIT (`beforeCommit`), a spare reader holds that state again.
 *
 * node:sqlite runs each statement to its end in one call, so a switch never lands in the middle of one: a statement
 * runs on whichever snapshot is current when it is called. A Kysely transaction (`readSnapshot`) keeps the snapshot it
 * began on until it ends.
 *
 * With no spare reader (at most MAX_READERS connections), a sync ends without a snapshot: reads see the newest state,
 * and what they could show that is not yet durable is recorded (`exposed`) for `readsSettled`, the wait every read's
 * answer made before. At the next sync they move to its snapshot (still exposed until that sync ends), and they are
 * back on durable snapshots from its end. Reads never go back to an older state than one they showed.
 */
export const MAX_READERS = 5;

/** What the reads need of the WAL's syncer (wal-sync.ts). */
export interface SyncCounts {
  /** The number of the last commit; with `showsRequestLog` false, of the last that wrote more than request-log entries. */
  last(showsRequestLog: boolean): number;
  /** Every commit up to this number is durable. */
  durableUpTo(): number;
  /** Undefined when commit `n` is durable; otherwise the promise that it will be (wal-sync.ts `settled`). */
  settledAt(n: number): Promise<void> | undefined;
  failure(): Error | undefined;
}

/** A reader connection, and the snapshot it holds. */
export interface Reader {
  native: DatabaseSync;
  /** Kysely's statements on this connection, prepared once each. */
  kysely: SqliteDatabase;
  begin: StatementSync;
  touch: StatementSync;
  rollback: StatementSync;
  /** Holding a snapshot: the last commit it shows (-1: not holding one); and the last shown one, for `exposed`. */
  covers: number;
  coversShown: number;
  /** Kysely transactions reading this snapshot. */
  holders: number;
}

export class DurableReads {
  readonly #open: () => DatabaseSync;
  readonly #sync: SyncCounts;
  readonly #readers: Reader[] = [];
  /** Readers holding no snapshot: the first one serves live reads. */
  readonly #free: Reader[] = [];
  /** The snapshot reads use; undefined: they see the newest state. */
  #current: Reader | undefined;
  /** The snapshots opened for syncs in flight, by the commit each makes durable. */
  readonly #pending = new Map<number, Reader>();
  /** The newest commit (any; shown) a read may have seen that was not durable when it was read. */
  #exposed = 0;
  #exposedShown = 0;
  #released: (() => void)[] = [];
  #closed = false;

  constructor(open: () => DatabaseSync, sync: SyncCounts) {
    this.#open = open;
    this.#sync = sync;
    this.#free.push(this.#add());
  }

  /** The connection a read runs on now (prepared.ts runs on it directly); undefined once closed. */
  forRead(): DatabaseSync | undefined {
    return this.#closed ? undefined : this.#forRead().native;
  }

  #forRead(): Reader {
    if (this.#closed) throw new DatabaseClosedError();
    const current = this.#current;
    if (current !== undefined) {
      if (current.covers > this.#sync.durableUpTo()) this.#expose(current.covers, current.coversShown);
      return current;
    }
    const last = this.#sync.last(true);
    if (last > this.#sync.durableUpTo()) this.#expose(last, this.#sync.last(false));
    // #take leaves one reader free for these; only a transaction opened past the bound may have taken it.
    if (this.#free.length === 0) this.#free.push(this.#add());
    return this.#free[0]!;
  }

  #expose(last: number, shown: number): void {
    if (last > this.#exposed) this.#exposed = last;
    if (shown > this.#exposedShown) this.#exposedShown = shown;
  }

  /**
   * Undefined when nothing a read has shown can be taken back by a power loss; otherwise the promise that it will be
   * durable. Only reads that found no durable snapshot to run on leave anything to wait for.
   */
  readsSettled(showsRequestLog: boolean): Promise<void> | undefined {
    return this.#sync.settledAt(showsRequestLog ? this.#exposed : this.#exposedShown);
  }

  /** The writer is about to COMMIT: if reads see the newest state, a spare reader holds it first (all durable). */
  beforeCommit(): void {
    if (this.#current !== undefined || this.#closed) return;
    const last = this.#sync.last(true);
    if (last !== this.#sync.durableUpTo() || this.#sync.failure() !== undefined) return;
    const reader = this.#pinSpare(last);
    if (reader !== undefined) this.#current = reader;
  }

  /** A sync that makes commits up to `target` durable is about to start: a spare reader holds what it will cover. */
  syncing(target: number): void {
    if (this.#closed) return;
    const reader = this.#pinSpare(target);
    if (reader === undefined) return;
    this.#pending.set(target, reader);
    // Reads that see the newest state are exposed to every commit made since; on this snapshot only up to `target`,
    // which is durable once this sync ends (then they are back on durable snapshots).
    if (this.#current === undefined && target >= this.#exposed) this.#switchTo(reader);
  }

  /** That sync ended; called before any answer waiting for it is released. */
  synced(target: number, ok: boolean): void {
    const reader = this.#pending.get(target);
    this.#pending.delete(target);
    const durable = this.#sync.durableUpTo();
    if (ok && reader !== undefined && target === durable && target >= this.#exposed) this.#switchTo(reader);
    else if (ok && target === durable && this.#current !== undefined && this.#current.covers < durable) {
      // No snapshot of this sync (none was spare): reads must see what it made durable, so they see the newest state.
      this.#switchTo(undefined);
    }
    if (reader !== undefined) this.#letGo(reader);
    // Every commit durable: nothing to hide, and a snapshot held would keep the WAL from starting over.
    if (this.#current !== undefined && this.#sync.last(true) === durable && this.#current.covers === durable)
      this.#switchTo(undefined);
    if ((this.#current === undefined && this.#pending.size === 0) || this.#sync.failure() !== undefined)
      for (const release of this.#released.splice(0)) release();
  }

  /**
   * Undefined, or the promise that reads have let go of their snapshots (every commit durable, reads on the newest
   * state), which a WAL restart needs: the checkpointer's hold waits for it before its checkpoint. The writer is
   * paused then, so it is at most the syncs in flight away. A Kysely transaction still keeps its own.
   */
  released(): Promise<void> | undefined {
    if ((this.#current === undefined && this.#pending.size === 0) || this.#sync.failure() !== undefined)
      return undefined;
    return new Promise((resolve) => this.#released.push(resolve));
  }

  /** A Kysely transaction begins: the snapshot it reads until it ends (the current one, or the newest state's). */
  hold(): Reader {
    if (this.#closed) throw new DatabaseClosedError();
    let reader = this.#current;
    if (reader === undefined) {
      const spare = this.#take() ?? this.#add();
      try {
        this.#pin(spare, this.#sync.last(true), this.#sync.last(false));
      } catch (error) {
        this.#unpinned(spare);
        throw error;
      }
      reader = spare;
    }
    if (reader.covers > this.#sync.durableUpTo()) this.#expose(reader.covers, reader.coversShown);
    reader.holders++;
    return reader;
  }

  letGoOf(reader: Reader): void {
    reader.holders--;
    this.#letGo(reader);
  }

  /** A live read (`#forRead`) for Kysely: the statement cache of the connection it runs on. */
  kyselyForRead(): SqliteDatabase {
    return this.#forRead().kysely;
  }

  close(): void {
    this.#closed = true;
    for (const release of this.#released.splice(0)) release();
    // Closing a connection ends its snapshot.
    for (const reader of this.#readers) if (reader.native.isOpen) reader.native.close();
  }

  #switchTo(reader: Reader | undefined): void {
    const old = this.#current;
    this.#current = reader;
    if (old !== undefined && old !== reader) this.#letGo(old);
  }

  /** Ends a snapshot nobody uses any more, and keeps its connection as a spare. */
  #letGo(reader: Reader): void {
    if (reader === this.#current || reader.holders > 0 || reader.covers < 0) return;
    for (const pending of this.#pending.values()) if (pending === reader) return;
    reader.covers = -1;
    if (this.#readers.length > MAX_READERS && this.#free.length > 0) {
      this.#drop(reader); // opened past the bound (for a transaction)
      return;
    }
    try {
      if (reader.native.isOpen && reader.native.isTransaction) reader.rollback.run();
    } catch {
      // It runs where a sync ends: a connection that cannot end its snapshot is closed, and a new one opened if needed.
      this.#drop(reader);
      return;
    }
    this.#free.push(reader);
  }

  #drop(reader: Reader): void {
    this.#readers.splice(this.#readers.indexOf(reader), 1);
    try {
      if (reader.native.isOpen) reader.native.close();
    } catch {
      // Closing ends its snapshot too; a connection that cannot even close is left to the process's end.
    }
  }

  /**
   * A spare reader holding the newest state, which shows the commits up to `covers`; undefined when none is spare or
   * it failed to begin (then reads see the newest state, and what they show is waited for as before: `exposed`).
   */
  #pinSpare(covers: number): Reader | undefined {
    const reader = this.#take();
    if (reader === undefined) return undefined;
    try {
      this.#pin(reader, covers, this.#sync.last(false));
      return reader;
    } catch {
      this.#unpinned(reader);
      return undefined;
    }
  }

  /** A reader whose snapshot failed to begin: spare again. */
  #unpinned(reader: Reader): void {
    reader.covers = -1;
    try {
      if (reader.native.isOpen && reader.native.isTransaction) reader.rollback.run();
    } catch {
      this.#drop(reader);
      return;
    }
    if (!this.#free.includes(reader)) this.#free.push(reader);
  }

  /** A spare reader to hold a snapshot on, leaving one for live reads; undefined when MAX_READERS are busy. */
  #take(): Reader | undefined {
    if (this.#free.length > 1) return this.#free.pop();
    if (this.#readers.length < MAX_READERS) return this.#add();
    return undefined;
  }

  #pin(reader: Reader, covers: number, coversShown: number): void {
    const index = this.#free.indexOf(reader);
    if (index >= 0) this.#free.splice(index, 1);
    // A deferred BEGIN takes its snapshot at its first read.
    reader.begin.run();
    reader.touch.get();
    reader.covers = covers;
    reader.coversShown = coversShown;
  }

  #add(): Reader {
    const native = this.#open();
    const reader: Reader = {
      native,
      kysely: kyselySqliteDatabase(native),
      begin: native.prepare('BEGIN'),
      touch: native.prepare('SELECT 1 FROM sqlite_schema LIMIT 1'),
      rollback: native.prepare('ROLLBACK'),
      covers: -1,
      coversShown: -1,
      holders: 0,
    };
    this.#readers.push(reader);
    return reader;
  }
}
