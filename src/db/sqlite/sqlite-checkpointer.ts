import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import { Worker } from 'node:worker_threads';

/** What the thread is asked (sqlite-checkpoint-worker.mjs): a checkpoint, run at once (this side spaces them). */
type CheckpointRequest = 'checkpoint';
/** What it answers after each checkpoint. */
interface CheckpointResult {
  /** Frames in the WAL, and how many of them are now in the database (equal: the WAL may restart). */
  log: number;
  checkpointed: number;
  error?: string;
}

/**
 * WAL frames past which the writer pauses for a checkpoint (4,000 frames of 4 KiB: 16 MiB of WAL). The writer never
 * checkpoints (`wal_autocheckpoint=0`, sqlite.ts): the checkpointer's thread does, beside it. But SQLite restarts the
 * WAL from its beginning only when a write begins with every frame already copied back, and under a steady load a
 * new commit always lands while a checkpoint runs; so once the WAL is this long, the next batch waits (without
 * blocking the event loop) for one checkpoint to finish with nothing committing, and the WAL starts over.
 */
export const WAL_LIMIT_FRAMES = 4000;
/** Checkpoints the writer waits for at most, each time the WAL passes the limit. */
const HOLD_ATTEMPTS = 3;
/**
 * At most one checkpoint per this long after a commit asked for one, unless the WAL is past half of WAL_LIMIT_FRAMES
 * (then they follow each other without a pause, so that the frames reported are never more than one checkpoint old
 * when the limit is near) or the writer waits for one.
 */
const MIN_INTERVAL_MS = 250;

export interface Checkpointer {
  /** A batch committed: ask for a checkpoint (at most one at a time, spaced by MIN_INTERVAL_MS). */
  afterCommit(): void;
  /**
   * Undefined, or the checkpoint the next batch waits for (the WAL passed WAL_LIMIT_FRAMES). `ready`: what must
   * happen before that checkpoint can copy every frame (the reads letting go of their snapshots, durable-reads.ts).
   */
  beforeBatch(ready?: () => Promise<void> | undefined): Promise<void> | undefined;
  /** Frames in the WAL at the last checkpoint (/metrics, tests). */
  walFrames(): number;
  /** Resolves once no checkpoint is asked of the thread or running (`Database.checkpointed`). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** A checkpointer's thread that ended without being asked to (it failed) is started again after this long. */
const RESTART_MS = 1000;

/**
 * Starts the checkpointer's thread on the database at `path` (sqlite-checkpoint-worker.mjs). A worker thread costs
 * its own V8 isolate; it is kept small (bench/FINDINGS.md measures the RSS it adds): it loads nothing but its own file,
 * neither this process's `--import`/`--require` preloads (`execArgv`) nor those of NODE_OPTIONS (`env`), which in a heap
 * of 8 MB would not fit (an instrumentation agent, or a TypeScript preload: the thread ran out of memory at start and
 * took the server down). A thread that fails anyway is started again; meanwhile the writer does not wait for it.
 *
 * The spacing is kept here, on this thread's clock (`performance.now`, `setTimeout`), not by a timer in the checkpointer's
 * thread: the same 250 ms in a server, and a clock that a test or the instruction count (bench/instructions.ts, a
 * virtual clock) governs, so that checkpoints, and their answers here, come after the same requests in every run.
 */
export function startCheckpointer(path: string, onError: (message: string) => void): Checkpointer {
  let asked = false;
  let frames = 0;
  let last = 0; // when the last checkpoint's answer came, or the thread started (performance.now)
  let spaced: NodeJS.Timeout | undefined; // a commit's checkpoint, waiting until MIN_INTERVAL_MS since the last
  let holding: { promise: Promise<void>; release: () => void; attempts: number; ready: boolean } | undefined;
  let waiting: PromiseWithResolvers<void> | undefined; // `idle`'s callers
  let closing: Promise<void> | undefined;
  let restart: NodeJS.Timeout | undefined;

  const walIndex = walIndexReader(`${path}-shm`);
  const spawn = () => {
    restart = undefined;
    last = performance.now();
    const thread = new Worker(new URL('./sqlite-checkpoint-worker.mjs', import.meta.url), {
      workerData: { path },
      execArgv: [],
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
    });
    thread.unref();
    thread.on('message', (result: CheckpointResult) => {
      asked = false;
      last = performance.now();
      if (result.error !== undefined) onError(result.error);
      frames = Math.max(0, result.log);
      // A checkpoint asked before the reads let go of their snapshots counts for nothing: one is asked once they have.
      if (holding === undefined || !holding.ready) return;
      // The writer waits: until a checkpoint copied every frame (a checkpoint already running when the writer stopped
      // may not have), or a reader's old snapshot kept HOLD_ATTEMPTS of them from it; then the batch goes on.
      const complete = result.error === undefined && result.log === result.checkpointed;
      if (!complete && ++holding.attempts < HOLD_ATTEMPTS) return ask();
      letGo();
    });
    thread.on('message', settle);
    thread.on('error', (error) => onError(error.message));
    thread.on('exit', () => {
      worker = undefined;
      asked = false;
      // Whatever it was asked will never be answered: a waiting writer goes on (the WAL stays long a while longer).
      letGo();
      settle();
      if (closing === undefined) restart = setTimeout(spawn, RESTART_MS).unref();
    });
    worker = thread;
  };
  let worker: Worker | undefined;

  const settle = () => {
    if (asked) return;
    waiting?.resolve();
    waiting = undefined;
  };
  const letGo = () => {
    holding?.release();
    holding = undefined;
  };
  const ask = () => {
    clearTimeout(spaced);
    spaced = undefined;
    if (worker === undefined) return;
    asked = true;
    worker.postMessage('checkpoint' satisfies CheckpointRequest);
  };
  spawn();

  return {
    afterCommit() {
      // The WAL's length now, not at the last checkpoint: at a fast enough write rate a spacing of MIN_INTERVAL_MS
      // alone let it reach three times the limit before any checkpoint reported it.
      const now = walIndex.frames();
      if (now !== undefined) frames = now;
      if (asked || spaced !== undefined || closing !== undefined) return;
      const wait = frames >= WAL_LIMIT_FRAMES / 2 ? 0 : last + MIN_INTERVAL_MS - performance.now();
      if (wait <= 0) return ask();
      spaced = setTimeout(ask, wait);
      spaced.unref();
    },
    beforeBatch(ready) {
      // No thread (it failed and is being started again): nothing would end the wait.
      if (frames < WAL_LIMIT_FRAMES || worker === undefined) return undefined;
      if (holding === undefined) {
        let release!: () => void;
        const promise = new Promise<void>((resolve) => {
          release = resolve;
        });
        const hold = { promise, release, attempts: 0, ready: false };
        holding = hold;
        const start = () => {
          if (holding !== hold) return; // the thread ended meanwhile: the writer went on
          hold.ready = true;
          if (!asked) ask();
        };
        const waitFor = ready?.();
        if (waitFor === undefined) start();
        else void waitFor.then(start);
      }
      return holding.promise;
    },
    walFrames: () => frames,
    idle() {
      if (!asked) return Promise.resolve();
      waiting ??= Promise.withResolvers();
      return waiting.promise;
    },
    close() {
      // Once, however often the database is closed; an unreferenced thread's exit would not keep this process waiting.
      closing ??= (async () => {
        clearTimeout(restart);
        clearTimeout(spaced);
        walIndex.close();
        const thread = worker;
        if (thread === undefined) return;
        thread.ref();
        // Not events.once: it rejects on an 'error' event, which nobody would catch here.
        const exited = new Promise((resolve) => thread.once('exit', resolve));
        thread.postMessage('close');
        await exited;
      })();
      return closing;
    },
  };
}

/**
 * The number of frames in the WAL as the writer left them: `mxFrame` of the wal-index header, at byte 16 of the `-shm`
 * file in the machine's byte order (SQLite's file format, "The WAL-Index Format"). One 4-byte read per committed
 * batch. Undefined when the file cannot be read (it is made by the first connection; a read error leaves the
 * checkpoints' own reports to tell the length).
 */
function walIndexReader(shmPath: string): { frames(): number | undefined; close(): void } {
  let fd: number | undefined;
  const header = Buffer.alloc(4);
  const little = endianness() === 'LE';
  return {
    frames() {
      try {
        fd ??= openSync(shmPath, 'r');
        if (readSync(fd, header, 0, 4, 16) !== 4) return undefined;
        return little ? header.readUInt32LE(0) : header.readUInt32BE(0);
      } catch {
        return undefined;
      }
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
