/**
 * The checkpointer's thread (src/db/sqlite/sqlite-checkpointer.ts) when it fails: the process goes on, the thread is
 * started again, and the writer is never left waiting for an answer that cannot come.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { startCheckpointer } from '../../src/db/sqlite/sqlite-checkpointer.ts';
import { rowsInFileAlone } from '../helpers/sqlite-file.ts';

test('a checkpointer thread that fails is reported and started again, and the process goes on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-checkpointer-'));
  try {
    // A database in a directory that does not exist: the thread cannot open it, and ends with an error at start.
    const errors: string[] = [];
    let second!: () => void;
    const twice = new Promise<void>((resolve) => {
      second = resolve;
    });
    const checkpointer = startCheckpointer(join(dir, 'missing', 'x.db'), (message) => {
      errors.push(message);
      if (errors.length === 2) second();
    });
    // Before, the wait for the thread's exit rejected with its error and nobody caught it: the process ended.
    await twice;
    assert.match(errors[0]!, /unable to open database file/);
    assert.equal(checkpointer.beforeBatch(), undefined, 'no thread to answer: the writer does not wait');
    checkpointer.afterCommit(); // asking a thread that is gone is harmless
    await checkpointer.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the checkpoints' spacing follows this thread's clock, which a test (or the instruction count) can hold", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-checkpointer-'));
  const path = join(dir, 'spaced.db');
  const writer = new DatabaseSync(path);
  writer.exec('PRAGMA journal_mode = WAL');
  writer.exec('PRAGMA wal_autocheckpoint = 0');
  writer.exec('create table t (id integer primary key)');
  writer.exec('insert into t default values');
  const realSetTimeout = setTimeout;
  const sleep = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));
  const ownNow = Object.getOwnPropertyDescriptor(performance, 'now');
  let now = 0;
  t.mock.timers.enable({ apis: ['setTimeout'] });
  Object.defineProperty(performance, 'now', { value: () => now, configurable: true, writable: true });
  const errors: string[] = [];
  const checkpointer = startCheckpointer(path, (message) => errors.push(message));
  try {
    // A commit within 250 ms of the thread's start: its checkpoint waits until 250 ms have passed on this clock.
    checkpointer.afterCommit();
    // However long the wall clock runs meanwhile (a second here), nothing is checkpointed while this clock stands.
    // Before, the thread spaced checkpoints with a timer of its own, and checkpointed once 250 ms had passed on the
    // wall clock: the table was in the file alone after this sleep.
    await sleep(1000);
    await checkpointer.idle();
    assert.equal(rowsInFileAlone(path, 't'), null, 'a checkpoint ran while the clock stood still');
    now = 250;
    t.mock.timers.tick(250);
    await checkpointer.idle();
    assert.equal(rowsInFileAlone(path, 't'), 1, 'the checkpoint asked for at 250 ms did not run');
    assert.deepEqual(errors, []);
  } finally {
    await checkpointer.close();
    if (ownNow === undefined) delete (performance as { now?: unknown }).now;
    else Object.defineProperty(performance, 'now', ownNow);
    writer.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
