/**
 * The checkpointer's thread (sqlite-checkpointer.ts): its own connection to the database file, on which it copies
 * the WAL back into the database when asked, so that the two fsyncs of a checkpoint never run on the event loop.
 * At most one checkpoint per MIN_INTERVAL_MS unless the writer is waiting for one.
 *
 * Plain JavaScript: a TypeScript file would make the thread load Node's type stripper, which alone needs more heap
 * than the rest of this thread. The messages' types are in sqlite-checkpointer.ts.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const MIN_INTERVAL_MS = 250;

const native = new DatabaseSync(workerData.path);
// A checkpoint syncs the WAL before copying it and the database after, at NORMAL as at FULL. PASSIVE: it never
// waits for the writer or the readers, it copies what it can.
native.exec('PRAGMA synchronous = NORMAL');
native.exec('PRAGMA busy_timeout = 0');
const checkpoint = native.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let last = 0;
let frames = 0;
let closed = false;

/** @returns {{ log: number, checkpointed: number, error?: string }} */
function run() {
  try {
    const row = /** @type {{ log: number, checkpointed: number }} */ (checkpoint.get());
    frames = row.log;
    return { log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    return { log: -1, checkpointed: -1, error: String(error?.message ?? error) };
  } finally {
    last = performance.now();
  }
}

parentPort?.on('message', (message) => {
  if (message === 'close') {
    closed = true;
    native.close();
    parentPort?.close();
    return;
  }
  // Back to back while the WAL is past half the writer's limit (sqlite-checkpointer.ts), so that the frames it
  // reports are never more than one checkpoint old when the limit is near.
  const soon = message.urgent || frames >= message.limit / 2;
  const wait = soon ? 0 : Math.max(0, last + MIN_INTERVAL_MS - performance.now());
  setTimeout(() => {
    if (!closed) parentPort?.postMessage(run());
  }, wait);
});
