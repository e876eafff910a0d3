/**
 * Reads on durable snapshots (src/db/sqlite/durable-reads.ts): a read shows a commit only once its sync has ended,
 * before that sync's answers are released; with no spare reader it falls back to the wait every read made before;
 * it never goes back to an older state; and once every commit is durable no snapshot is left to stop the WAL from
 * starting over. The syncer is played by hand here (its counts, and the calls walSync makes around each sync); the
 * database, the writer and the readers are real. test/db/sqlite-durability.test.ts checks the same on a real server
 * with slow syncs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import { Kysely, sql } from 'kysely';
import { openDatabase } from '../../src/db/open.ts';
import { DurableReads, MAX_READERS } from '../../src/db/sqlite/durable-reads.ts';
import { durableReadsDialect } from '../../src/db/sqlite/durable-reads-dialect.ts';

const dir = mkdtempSync(join(tmpdir(), 'plinth-durable-reads-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;

/** A database file, its writer, the reads over it, and a syncer played by hand. */
function setUp() {
  const path = join(dir, `reads-${++files}.db`);
  const writer = new DatabaseSync(path);
  writer.exec('PRAGMA journal_mode = WAL');
  writer.exec('PRAGMA wal_autocheckpoint = 0');
  writer.exec('create table items (id integer primary key)');
  const state = { committed: 0, durable: 0 };
  const reads = new DurableReads(
    () => {
      const native = new DatabaseSync(path);
      native.exec('PRAGMA query_only = ON');
      return native;
    },
    {
      last: () => state.committed,
      durableUpTo: () => state.durable,
      settledAt: (n) => (n <= state.durable ? undefined : Promise.resolve()),
      failure: () => undefined,
    },
  );
  /** One commit of the writer, as the group commit makes it. */
  const commit = () => {
    reads.beforeCommit();
    writer.exec(`insert into items (id) values (${state.committed + 1})`);
    state.committed++;
    return state.committed;
  };
  /** A sync ends: `target` is durable (and so is everything before it). */
  const synced = (target: number) => {
    state.durable = Math.max(state.durable, target);
    reads.synced(target, true);
  };
  /** Rows a read sees now. */
  const count = () => Number(reads.forRead()!.prepare('select count(*) as n from items').get()!.n);
  const close = () => {
    reads.close();
    writer.close();
  };
  return { path, writer, reads, state, commit, synced, count, close };
}

test('a commit is read only once its sync has ended, and from then on (before its answers leave)', () => {
  const { reads, commit, synced, count, close } = setUp();
  try {
    commit();
    reads.syncing(1);
    // Before, a read saw the commit at once, and its answer waited for the sync (the wait this replaces).
    assert.equal(count(), 0, 'a commit whose sync is in flight is not read');
    assert.equal(reads.readsSettled(true), undefined, 'and so nothing a read showed needs waiting for');
    commit();
    reads.syncing(2);
    commit(); // its sync not begun: two are in flight
    synced(2);
    assert.equal(count(), 2, 'the sync that ended covers two commits; the third is not durable');
    synced(1); // an older sync that ends later changes nothing
    assert.equal(count(), 2);
    reads.syncing(3);
    synced(3);
    assert.equal(count(), 3);
    assert.equal(reads.readsSettled(true), undefined);
  } finally {
    close();
  }
});

test('with no spare reader, reads see the newest state and their answers wait; the next sync ends that', () => {
  const { reads, commit, synced, count, close } = setUp();
  try {
    // Transactions hold every reader but the one kept for reads of the newest state.
    const held = Array.from({ length: MAX_READERS - 1 }, () => reads.hold());
    commit();
    reads.syncing(1);
    assert.equal(count(), 1, 'no snapshot to read: the newest state');
    assert.ok(reads.readsSettled(false) instanceof Promise, 'what it showed is not durable: its answer waits');
    for (const reader of held) reads.letGoOf(reader);
    commit();
    assert.equal(count(), 2);
    reads.syncing(2);
    // Reads move to the snapshot of the sync that began, never back to an older state than they showed.
    assert.equal(count(), 2);
    synced(1);
    assert.equal(count(), 2, 'reads never go back to an older state');
    commit();
    synced(2);
    assert.equal(reads.readsSettled(false), undefined, 'everything a read showed is durable');
    assert.equal(count(), 2, 'back on durable snapshots: the third commit is not read before its sync');
    reads.syncing(3);
    synced(3);
    assert.equal(count(), 3);
  } finally {
    close();
  }
});

test("a Kysely transaction keeps its snapshot; once every commit is durable, no snapshot stops the WAL's restart", async () => {
  const { path, writer, reads, state, commit, synced, close } = setUp();
  const db = new Kysely<{ items: { id: number } }>({ dialect: durableReadsDialect(reads) });
  try {
    commit();
    reads.syncing(1);
    const seen = await db.transaction().execute(async (trx) => {
      const first = await trx.selectFrom('items').select('id').execute();
      synced(1);
      commit();
      reads.syncing(2);
      synced(2);
      const outside = await db.selectFrom('items').select('id').execute();
      const second = await trx.selectFrom('items').select('id').execute();
      return { first: first.length, outside: outside.length, second: second.length };
    });
    assert.deepEqual(seen, { first: 0, outside: 2, second: 0 });
    commit();
    reads.syncing(3);
    const released = reads.released();
    assert.ok(released instanceof Promise, 'a snapshot is held while a sync is in flight');
    synced(3);
    await released;
    assert.equal(state.committed, 3);
    // With a snapshot left held, TRUNCATE would find a reader in the WAL (busy) and could not empty it.
    writer.exec('PRAGMA busy_timeout = 0');
    const result = writer.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number };
    assert.equal(result.busy, 0, 'a reader still holds a snapshot in the WAL');
    assert.equal(statSync(`${path}-wal`).size, 0);
  } finally {
    await db.destroy();
    close();
  }
});

test('on a real database, every write is read by the read that follows its answer', async () => {
  const database = openDatabase(`sqlite:${join(dir, 'real.db')}`);
  try {
    await database.write((trx) => sql`create table rows (id integer primary key)`.execute(trx));
    let next = 0;
    const writeThenRead = async () => {
      for (let i = 0; i < 50; i++) {
        const id = ++next;
        await database.write((trx) => sql`insert into rows (id) values (${id})`.execute(trx));
        const { rows } = await sql<{ id: number }>`select id from rows where id = ${id}`.execute(database.db);
        assert.equal(rows.length, 1, `write ${id} was answered, and the read after it missed it`);
        assert.equal(database.readsSettled(), undefined, 'a read on a durable snapshot has nothing to wait for');
      }
    };
    await Promise.all(Array.from({ length: 16 }, writeThenRead));
  } finally {
    await database.close();
  }
});
