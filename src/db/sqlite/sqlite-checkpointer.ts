import { Worker } from 'node:worker_threads';

/** What the thread is asked (sqlite-checkpoint-worker.mjs). */
interface CheckpointRequest {
  /** The writer waits for this one: run it at once. */
  urgent: boolean;
  /** WAL_LIMIT_FRAMES: past half of it, checkpoints follow each other without a pause. */
  limit: number;
}
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

export interface Checkpointer {
  /** A batch committed: ask for a checkpoint (at most one at a time; the thread spaces them). */
  afterCommit(): void;
  /**
   * Undefined, or the checkpoint the next batch waits for (the WAL passed WAL_LIMIT_FRAMES). `ready`: what must
   * happen before that checkpoint can copy every frame (the reads letting go of their snapshots, durable-reads.ts).
   */
  beforeBatch(ready?: () => Promise<void> | undefined): Promise<void> | undefined;
  /** Frames in the WAL at the last checkpoint (/metrics, tests). */
  walFrames(): number;
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
 */
export function startCheckpointer(path: string, onError: (message: string) => void): Checkpointer {
  let asked = false;
  let frames = 0;
  let holding: { promise: Promise<void>; release: () => void; attempts: number; ready: boolean } | undefined;
  let closing: Promise<void> | undefined;
  let restart: NodeJS.Timeout | undefined;

  const spawn = () => {
    restart = undefined;
    const thread = new Worker(new URL('./sqlite-checkpoint-worker.mjs', import.meta.url), {
      workerData: { path },
      execArgv: [],
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
    });
    thread.unref();
    thread.on('message', (result: CheckpointResult) => {
      asked = false;
      if (result.error !== undefined) onError(result.error);
      frames = Math.max(0, result.log);
      // A checkpoint asked before the reads let go of their snapshots counts for nothing: one is asked once they have.
      if (holding === undefined || !holding.ready) return;
      // The writer waits: until a checkpoint copied every frame (a checkpoint already running when the writer stopped
      // may not have), or a reader's old snapshot kept HOLD_ATTEMPTS of them from it; then the batch goes on.
      const complete = result.error === undefined && result.log === result.checkpointed;
      if (!complete && ++holding.attempts < HOLD_ATTEMPTS) return ask({ urgent: true, limit: WAL_LIMIT_FRAMES });
      letGo();
    });
    thread.on('error', (error) => onError(error.message));
    thread.on('exit', () => {
      worker = undefined;
      asked = false;
      // Whatever it was asked will never be answered: a waiting writer goes on (the WAL stays long a while longer).
      letGo();
      if (closing === undefined) restart = setTimeout(spawn, RESTART_MS).unref();
    });
    worker = thread;
  };
  let worker: Worker | undefined;

  const letGo = () => {
    holding?.release();
    holding = undefined;
  };
  const ask = (request: CheckpointRequest) => {
    if (worker === undefined) return;
    asked = true;
    worker.postMessage(request);
  };
  spawn();

  return {
    afterCommit() {
      if (!asked) ask({ urgent: false, limit: WAL_LIMIT_FRAMES });
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
          if (!asked) ask({ urgent: true, limit: WAL_LIMIT_FRAMES });
        };
        const waitFor = ready?.();
        if (waitFor === undefined) start();
        else void waitFor.then(start);
      }
      return holding.promise;
    },
    walFrames: () => frames,
    close() {
      // Once, however often the database is closed; an unreferenced thread's exit would not keep this process waiting.
      closing ??= (async () => {
        clearTimeout(restart);
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
