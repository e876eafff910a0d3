/**
 * The checkpointer's thread (src/db/sqlite/sqlite-checkpointer.ts) when it fails: the process goes on, the thread is
 * started again, and the writer is never left waiting for an answer that cannot come.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startCheckpointer } from '../../src/db/sqlite/sqlite-checkpointer.ts';

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
