import { closeSync, fdatasync, openSync } from 'node:fs';
import { DurabilityLostError } from '../errors.ts';

/**
 * Makes SQLite's commits durable off the event loop (docs/internals.md, "Durable commits off the event loop").
 *
 * The writer runs with `synchronous=NORMAL`: its COMMIT writes the transaction's frames to the WAL, the last one
 * marked as a commit, and returns without an fsync. This syncer then calls `fdatasync` on the WAL file on libuv's
 * thread pool, and a commit counts as durable once a sync that started after it has finished. That is the state
 * `synchronous=FULL` reaches at the end of its COMMIT: every frame of the transaction on stable storage. After a
 * power loss SQLite rebuilds the WAL index from the file and keeps each frame whose salts match the header and whose
 * running checksum holds, up to the last commit frame, so a transaction whose frames were synced is recovered. (The
 * WAL header, rewritten when the WAL restarts, SQLite syncs itself at NORMAL; checkpoints sync the WAL before copying
 * it and the database after.)
 *
 * Commits are numbered in order. One sync covers every commit made before it started (fdatasync flushes the whole
 * file), so the answers of commit n wait for the first sync that started after it, whichever finishes first. At most
 * MAX_IN_FLIGHT syncs run at once: with one, a commit arriving during a sync would wait for nearly two.
 */
const MAX_IN_FLIGHT = 2;

export interface WalSync {
  /**
   * Records a COMMIT that just returned; its number, for `durable`. `shown` false: the commit wrote nothing but
   * request-log entries, which only the request log's own answers can show (`settled`).
   */
  committed(shown?: boolean): number;
  /** Resolves once commit `n` is on stable storage; rejects when a sync failed (nothing after it is durable). */
  durable(n: number): Promise<void>;
  /**
   * Undefined when every commit an answer could show is durable (a comparison); otherwise the promise that they will
   * be, one for every caller until the next such commit (the answers sent during one sync share it). A commit of
   * request-log entries alone counts only for an answer that `showsRequestLog` (docs/internals.md).
   */
  settled(showsRequestLog?: boolean): Promise<void> | undefined;
  /** Undefined when commit `n` is durable; otherwise the promise that it will be (shared as `settled`'s is). */
  settledAt(n: number): Promise<void> | undefined;
  /** The number of the last commit; with `showsRequestLog` false, of the last that wrote more than request-log entries. */
  last(showsRequestLog: boolean): number;
  /** Every commit up to this number is durable. */
  durableUpTo(): number;
  /** Set once a sync failed: every later write is refused with it. */
  failure(): Error | undefined;
  close(): void;
}

/** Told of each sync (durable-reads.ts holds a snapshot of what it covers), synchronously. */
export interface SyncObserver {
  /** A sync is about to start; it makes every commit up to `target` durable. */
  syncing(target: number): void;
  /** It ended (`ok`: those commits are durable now), before any promise waiting for it is settled. */
  synced(target: number, ok: boolean): void;
}

interface Waiter {
  n: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * TEST ONLY: `PLINTH_TEST_UNSAFE_NO_WAL_SYNC=1` turns the WAL's fdatasync into a no-op, so that the power-loss
 * campaign (test/powerloss/) can prove it detects lost writes: with it, answered commits can be lost in a power cut.
 * Refused (the server does not start) unless `PLINTH_TEST_ONLY_SETTINGS=1` says this is a test; never set it in a
 * deployment.
 */
export function unsafeNoWalSync(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.PLINTH_TEST_UNSAFE_NO_WAL_SYNC ?? '') === '') return false;
  if (env.PLINTH_TEST_UNSAFE_NO_WAL_SYNC !== '1' || env.PLINTH_TEST_ONLY_SETTINGS !== '1')
    throw new Error(
      'PLINTH_TEST_UNSAFE_NO_WAL_SYNC is a test-only setting that loses acknowledged writes in a power cut: unset it ' +
        '(it is honoured only as 1, with PLINTH_TEST_ONLY_SETTINGS=1, by the power-loss campaign)',
    );
  process.emitWarning('PLINTH_TEST_UNSAFE_NO_WAL_SYNC: the WAL is never synced (a test)', 'PlinthTestOnly');
  return true;
}

export function walSync(walPath: string, unsafeNoSync = false, observer?: SyncObserver): WalSync {
  let fd: number | undefined;
  let committed = 0;
  let shown = 0; // the last commit that wrote more than request-log entries
  let durable = 0;
  let highestStarted = 0;
  let inFlight = 0;
  let failed: Error | undefined;
  const waiters: Waiter[] = []; // in commit order, as `durable` is asked in commit order
  let pending: { n: number; promise: Promise<void> } | undefined; // `settled`'s last promise: for commit n

  const settle = () => {
    while (waiters.length > 0 && (failed !== undefined || waiters[0]!.n <= durable)) {
      const waiter = waiters.shift()!;
      if (waiter.n <= durable) waiter.resolve();
      else waiter.reject(failed!);
    }
  };

  const start = () => {
    if (failed !== undefined || inFlight >= MAX_IN_FLIGHT || highestStarted >= committed) return;
    try {
      fd ??= openSync(walPath, 'r'); // at the first sync: the WAL file exists once a connection has read
    } catch (error) {
      failed = new DurabilityLostError((error as NodeJS.ErrnoException).code ?? 'EIO');
      observer?.synced(committed, false);
      return settle();
    }
    const target = committed;
    highestStarted = target;
    inFlight++;
    const sync = unsafeNoSync ? (_: number, done: (e: null) => void) => setImmediate(done, null) : fdatasync;
    observer?.syncing(target);
    sync(fd, (error) => {
      inFlight--;
      if (error === null) durable = Math.max(durable, target);
      else failed = new DurabilityLostError(error.code ?? 'EIO');
      observer?.synced(target, error === null);
      settle();
      start();
    });
  };

  return {
    committed(showable = true) {
      committed++;
      if (showable) shown = committed;
      start();
      return committed;
    },
    durable(n) {
      if (n <= durable) return Promise.resolve();
      if (failed !== undefined) return Promise.reject(failed);
      return new Promise((resolve, reject) => waiters.push({ n, resolve, reject }));
    },
    settled(showsRequestLog = false) {
      return this.settledAt(showsRequestLog ? committed : shown);
    },
    settledAt(n) {
      if (n <= durable) return undefined;
      if (pending?.n !== n) pending = { n, promise: this.durable(n) };
      return pending.promise;
    },
    last: (showsRequestLog) => (showsRequestLog ? committed : shown),
    durableUpTo: () => durable,
    failure: () => failed,
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
