/**
 * The checkpointer's thread (sqlite-checkpointer.ts): its own connection to the database file, on which it copies
 * the WAL back into the database when asked, so that the two fsyncs of a checkpoint never run on the event loop.
 * It checkpoints at once when asked: the main thread spaces the requests (on its own clock, which a test or the
 * instruction count can govern; a timer here would follow the wall clock alone).
 *
 * Plain JavaScript: a TypeScript file would make the thread load Node's type stripper, which alone needs more heap
 * than the rest of this thread. The messages' types are in sqlite-checkpointer.ts.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const native = new DatabaseSync(workerData.path);
// A checkpoint syncs the WAL before copying it and the database after, at NORMAL as at FULL. PASSIVE: it never
// waits for the writer or the readers, it copies what it can.
native.exec('PRAGMA synchronous = NORMAL');
native.exec('PRAGMA busy_timeout = 0');
const checkpoint = native.prepare('PRAGMA wal_checkpoint(PASSIVE)');

/** @returns {{ log: number, checkpointed: number, error?: string }} */
function run() {
  try {
    const row = /** @type {{ log: number, checkpointed: number }} */ (checkpoint.get());
    return { log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    return { log: -1, checkpointed: -1, error: String(error?.message ?? error) };
  }
}

parentPort?.on('message', (message) => {
  if (message === 'close') {
    native.close();
    parentPort?.close();
    return;
  }
  parentPort?.postMessage(run());
});
