/**
 * LIMITs on SQLite (src/db/sqlite/node-sqlite.ts, src/db/prepared.ts): SQLite (3.53, node:sqlite's) re-prepares a
 * statement whose LIMIT is a bound parameter at every run. A numeric LIMIT is written into the SQL; a statement
 * compiled once with its LIMIT as a placeholder is refused on SQLite, and `perLimit` compiles one per value. The
 * rows are the same on both backends.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/open.ts';
import { perLimit, prepared } from '../../src/db/prepared.ts';
import { ALL_MIGRATIONS } from '../../src/modules.ts';
import { BACKEND, freshDatabase } from '../helpers/database.ts';

type Org = { id: string };
const byPrefix = perLimit((limit) =>
  prepared<{ prefix: string }, Org>({ prefix: true }, (db, p) =>
    db.selectFrom('orgs').select('id').where('id', 'like', p.prefix).orderBy('id').limit(sql.lit(limit)),
  ),
);
const bound = prepared<{ prefix: string; limit: number }, Org>({ prefix: true, limit: true }, (db, p) =>
  db.selectFrom('orgs').select('id').where('id', 'like', p.prefix).orderBy('id').limit(p.limit),
);

test('a LIMIT is written into the SQL on SQLite, never bound; the rows are the same on both backends', async () => {
  const fresh = await freshDatabase();
  const database = openDatabase(fresh.url);
  try {
    await database.migrate(ALL_MIGRATIONS);
    const at = '2026-11-28T00:00:00.000Z';
    await database.write(async (trx) => {
      for (const n of [1, 2, 3, 4])
        await trx
          .insertInto('orgs')
          .values({ id: `org_limit_${n}`, name: `limit ${n}`, created_at: at })
          .execute();
    });
    const page = database.db.selectFrom('orgs').select('id').where('id', 'like', 'org_limit_%').orderBy('id').limit(3);
    // Before: `limit ?` with 3 bound, on SQLite as on PostgreSQL.
    if (BACKEND === 'sqlite') assert.match(page.compile().sql, /limit 3$/);
    assert.deepEqual(
      (await page.execute()).map((row) => row.id),
      ['org_limit_1', 'org_limit_2', 'org_limit_3'],
    );
    for (const limit of [2, 1, 2])
      assert.deepEqual(
        (await byPrefix(limit)(database.db, { prefix: 'org_limit_%' })).rows.map((row) => row.id),
        ['org_limit_1', 'org_limit_2'].slice(0, limit),
      );
    assert.throws(() => byPrefix(-1), /not a limit/);
    if (BACKEND === 'sqlite')
      await assert.rejects(bound(database.db, { prefix: 'org_limit_%', limit: 2 }), /a bound LIMIT .*perLimit/);
    else assert.equal((await bound(database.db, { prefix: 'org_limit_%', limit: 2 })).rows.length, 2);
  } finally {
    await database.close();
    await fresh.drop();
  }
});
