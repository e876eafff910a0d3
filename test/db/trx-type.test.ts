/**
 * The write handle is a type of its own (src/db/database.ts): only `Database.write` makes a `Trx`, and every function
 * that writes takes one. The `@ts-expect-error` lines below are the test: `npm run typecheck` fails if any of them
 * stops being an error, that is, if a write could be called with the read handle `db`. The runtime part checks that
 * the same calls, given the `Trx` of a real write, do write.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db, Trx } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open.ts';
import { prepared, preparedWrite } from '../../src/db/prepared.ts';
import { preparedInsert } from '../../src/db/prepared-insert.ts';
import { insertOrg } from '../../src/modules/keys/api-keys.repository.ts';
import { ALL_MIGRATIONS } from '../../src/modules.ts';
import { freshDatabase } from '../helpers/database.ts';

const orgRow = (id: string) => ({ id, name: id, display_name: null, created_at: '2026-11-24T00:00:00.000Z' });
const insertOrgRow = preparedInsert('orgs', { id: true, name: true, display_name: true, created_at: true });
const renameOrg = preparedWrite<{ id: string; name: string }>({ id: true, name: true }, (db, p) =>
  db.updateTable('orgs').set({ name: p.name }).where('id', '=', p.id),
);
const orgById = prepared<{ id: string }, { name: string }>({ id: true }, (db, p) =>
  db.selectFrom('orgs').select('name').where('id', '=', p.id),
);

/** Never called: what the compiler must refuse, each line on its own. */
export function refusedAtCompileTime(db: Db, trx: Trx): void {
  // @ts-expect-error a repository's write refuses the read handle
  void insertOrg(db, orgRow('org_a'));
  // @ts-expect-error a compiled insert refuses the read handle
  void insertOrgRow(db, orgRow('org_b'));
  // @ts-expect-error a compiled update refuses the read handle
  void renameOrg(db, { id: 'org_a', name: 'x' });
  // @ts-expect-error a plain Kysely instance is not a transaction
  const forged: Trx = db;
  // @ts-expect-error a write cannot be declared as a read: `prepared` takes selects only
  prepared<{ id: string }, never>({ id: true }, (k, p) => k.deleteFrom('orgs').where('id', '=', p.id));
  // A transaction reads as well as writes.
  void orgById(trx, { id: 'org_a' });
  void orgById(db, { id: 'org_a' });
  void forged;
}

test('the Trx of a real write runs the writes the read handle may not', async () => {
  const fresh = await freshDatabase();
  const database = openDatabase(fresh.url);
  try {
    await database.migrate(ALL_MIGRATIONS);
    await database.write(async (trx) => {
      await insertOrg(trx, orgRow('org_typed_1'));
      await insertOrgRow(trx, orgRow('org_typed_2'));
      await renameOrg(trx, { id: 'org_typed_2', name: 'renamed' });
    });
    assert.equal((await orgById(database.db, { id: 'org_typed_1' })).rows[0]?.name, 'org_typed_1');
    assert.equal((await orgById(database.db, { id: 'org_typed_2' })).rows[0]?.name, 'renamed');
  } finally {
    await database.close();
    await fresh.drop();
  }
});
