/**
 * The WAL's syncer (src/db/sqlite/wal-sync.ts) as the durable-answer wait uses it (src/platform/http/durable-answers.ts):
 * every answer that is not its own write's asks `settled()`. With nothing to sync that is a comparison; during a sync,
 * every answer sent before the next commit waits on the same promise, not one made (and kept, and settled) for each.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { walSync } from '../../src/db/sqlite/wal-sync.ts';

const dir = mkdtempSync(join(tmpdir(), 'plinth-wal-sync-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('settled(): nothing to wait for when every commit is synced; one promise per commit while one is not', async () => {
  const wal = join(dir, 'test.db-wal');
  writeFileSync(wal, 'frames');
  const sync = walSync(wal);
  try {
    assert.equal(sync.settled(), undefined, 'no commit yet: nothing to wait for');
    sync.committed();
    const first = sync.settled();
    assert.ok(first instanceof Promise, 'a commit not yet synced is waited for');
    // Before: a promise (and a waiter) per answer; each answer sent during this sync now shares the first one.
    assert.equal(sync.settled(), first, 'a second answer during the same sync waits on the same promise');
    sync.committed();
    const second = sync.settled();
    assert.notEqual(second, first, 'a later commit is waited for on its own');
    assert.equal(sync.settled(), second);
    await Promise.all([first, second]);
    assert.equal(sync.settled(), undefined, 'both synced: nothing to wait for again');
  } finally {
    sync.close();
  }
});

test("settled(): a commit of request-log entries alone holds back only the request log's answers", async () => {
  const wal = join(dir, 'log.db-wal');
  writeFileSync(wal, 'frames');
  const sync = walSync(wal);
  try {
    sync.committed(false);
    // Before, every answer waited for it: a read then paid one sync of the batch recording the reads before it.
    assert.equal(sync.settled(), undefined, 'an answer that shows no entry does not wait for the batch');
    const log = sync.settled(true);
    assert.ok(log instanceof Promise, 'an answer of the request log waits for it');
    sync.committed();
    const data = sync.settled();
    assert.ok(data instanceof Promise, 'any other commit is waited for by every answer');
    await Promise.all([log, data]);
    assert.equal(sync.settled(true), undefined);
  } finally {
    sync.close();
  }
});
