/**
 * `preparedSendInOrder` (src/db/prepared.ts): a multi-row insert whose values are bound by position, as the request
 * log writes its batches (src/modules/requests/requests.repository.ts). Rows land as given; a statement whose
 * parameters are not in the order named is refused before anything is written, on both backends.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../src/db/open.ts';
import { prepared, preparedSendInOrder } from '../../src/db/prepared.ts';
import { ALL_MIGRATIONS } from '../../src/modules.ts';
import { freshDatabase } from '../helpers/database.ts';

const COLUMNS = ['id', 'name', 'display_name', 'created_at'] as const;
const names = (order: readonly string[]) => [0, 1].flatMap((i) => order.map((column) => `${column}.${i}`));
const insertTwo = (order: readonly string[]) =>
  preparedSendInOrder(names(order), (db, p) =>
    db
      .insertInto('orgs')
      .values([0, 1].map((i) => Object.fromEntries(COLUMNS.map((column) => [column, p[`${column}.${i}`]]))) as never),
  );
const orgs = prepared<{ prefix: string }, { id: string; name: string; display_name: string | null }>(
  { prefix: true },
  (db, p) => db.selectFrom('orgs').select(['id', 'name', 'display_name']).where('id', 'like', p.prefix).orderBy('id'),
);

test('preparedSendInOrder: the values of two rows bound in order; a wrong order is refused', async () => {
  const fresh = await freshDatabase();
  const database = openDatabase(fresh.url);
  try {
    await database.migrate(ALL_MIGRATIONS);
    const at = '2026-11-28T00:00:00.000Z';
    await database.write(async (trx) => {
      insertTwo(COLUMNS)(trx, ['org_order_1', 'one', null, at, 'org_order_2', 'two', 'Two', at]);
    });
    assert.deepEqual(
      (await orgs(database.db, { prefix: 'org_order_%' })).rows.map((row) => ({ ...row })),
      [
        { id: 'org_order_1', name: 'one', display_name: null },
        { id: 'org_order_2', name: 'two', display_name: 'Two' },
      ],
    );
    // Named name-first: the statement binds id first, so these values would land in the wrong columns.
    const swapped = insertTwo(['name', 'id', 'display_name', 'created_at']);
    await assert.rejects(
      database.write(async (trx) => swapped(trx, ['three', 'org_order_3', null, at, 'four', 'org_order_4', null, at])),
      /not bound in the order named/,
    );
    assert.equal((await orgs(database.db, { prefix: 'org_order_%' })).rows.length, 2);
  } finally {
    await database.close();
    await fresh.drop();
  }
});
