import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { kyselySqliteDatabase, prepareOn, runPrepared } from '../../src/db/sqlite/node-sqlite.ts';

interface T {
  items: { id: number; name: string; flag: number; big: number };
}

function open(): Kysely<T> {
  const native = new DatabaseSync(':memory:');
  native.exec(
    'create table items (id integer primary key, name text not null, flag integer not null, big integer not null)',
  );
  return new Kysely<T>({ dialect: new SqliteDialect({ database: kyselySqliteDatabase(native) }) });
}

test('the node:sqlite adapter runs Kysely reads, writes, RETURNING, streams and transactions', async () => {
  const db = open();
  const inserted = await db
    .insertInto('items')
    .values({ id: 1, name: 'a', flag: true as never, big: 2 ** 40 })
    .executeTakeFirst();
  assert.equal(inserted.numInsertedOrUpdatedRows, 1n);
  assert.equal(inserted.insertId, 1n);
  const returned = await db
    .insertInto('items')
    .values({ id: 2, name: 'b', flag: 0, big: 0 })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  assert.deepEqual({ ...returned }, { id: 2, name: 'b' });
  const rows = await db.selectFrom('items').selectAll().where('name', 'in', ['a', 'b']).orderBy('id').execute();
  assert.deepEqual(
    rows.map((r) => ({ ...r })),
    [
      { id: 1, name: 'a', flag: 1, big: 2 ** 40 },
      { id: 2, name: 'b', flag: 0, big: 0 },
    ],
  );
  const updated = await db.updateTable('items').set({ name: 'c' }).where('id', '=', 2).executeTakeFirst();
  assert.equal(updated.numUpdatedRows, 1n);
  const streamed: number[] = [];
  for await (const row of db.selectFrom('items').select('id').orderBy('id').stream()) streamed.push(row.id);
  assert.deepEqual(streamed, [1, 2]);
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 3, name: 'd', flag: 0, big: 0 }).execute();
      throw new Error('roll back');
    }),
  );
  const count = await sql<{ n: number }>`select count(*) as n from items`.execute(db);
  assert.equal(count.rows[0]!.n, 2, 'the rolled-back insert is gone');
  await db.destroy();
});

test('the same SQL text reuses one prepared statement', () => {
  let prepared = 0;
  const native = new DatabaseSync(':memory:');
  const counting = new Proxy(native, {
    get: (t, p) =>
      p === 'prepare'
        ? (s: string) => {
            prepared++;
            return t.prepare(s);
          }
        : (Reflect.get(t, p).bind?.(t) ?? Reflect.get(t, p)),
  });
  const adapter = kyselySqliteDatabase(counting as DatabaseSync);
  for (let i = 0; i < 5; i++) adapter.prepare('select 1');
  adapter.prepare('select 2');
  assert.equal(prepared, 2);
});

test('a statement compiled once returns plain objects of one shape, with what node:sqlite would have given', () => {
  const native = new DatabaseSync(':memory:');
  native.exec('create table t (id integer primary key, name text, blob blob, n real)');
  native.exec("insert into t values (1, 'a', x'0102', 1.5), (2, null, null, null)");
  const rows = runPrepared<Record<string, unknown>>(prepareOn(native, 'select * from t order by id'), []).rows;
  const plain = native.prepare('select * from t order by id').all();
  assert.deepEqual(
    rows.map((row) => ({ ...row })),
    plain.map((row) => ({ ...row })),
  );
  // node:sqlite's own rows are null-prototype objects in dictionary mode (V8's slow path wherever they are read).
  for (const row of rows) assert.equal(Object.getPrototypeOf(row), Object.prototype);
  // A name given twice keeps its last value and its first place, as node:sqlite's rows do.
  const twice = runPrepared(prepareOn(native, 'select 1 as a, 2 as b, 3 as a'), []).rows[0] as object;
  assert.deepEqual(Object.entries(twice), [
    ['a', 3],
    ['b', 2],
  ]);
  // A column named __proto__ is a field, never the prototype (such a statement keeps node:sqlite's rows).
  const proto = runPrepared(prepareOn(native, 'select 1 as __proto__'), []).rows[0] as object;
  assert.deepEqual(Object.entries(proto), [['__proto__', 1]]);
  // A statement without result columns reports what it changed.
  assert.equal(runPrepared(prepareOn(native, 'delete from t where id = ?'), [2]).numAffectedRows, 1n);
});
