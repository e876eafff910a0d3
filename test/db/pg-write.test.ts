/**
 * A PostgreSQL write (src/db/postgres/pg-write.ts) on the wire: what it issues in one turn goes out in one system call
 * (not one per statement), and every write reports the statements it sent, its BEGIN and COMMIT included (what
 * `plinth_db_statements` on /metrics counts). PostgreSQL only: SQLite has no wire.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { CommitStats } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open.ts';
import { prepared, preparedSend } from '../../src/db/prepared.ts';
import { ALL_MIGRATIONS } from '../../src/modules.ts';
import { BACKEND, freshDatabase } from '../helpers/database.ts';

const insertOrg = preparedSend<{ id: string; name: string; created_at: string }>(
  { id: true, name: true, created_at: true },
  (db, p) => db.insertInto('orgs').values({ id: p.id, name: p.name, display_name: null, created_at: p.created_at }),
);
const countOrgs = prepared<{ prefix: string }, { n: string }>({ prefix: true }, (db, p) =>
  db.selectFrom('orgs').select(sql<string>`count(*)`.as('n')).where('id', 'like', p.prefix),
);

/** Counts the system calls that write to sockets of `port` while `work` runs (every pg client of this process). */
async function socketWrites(port: number, work: () => Promise<void>): Promise<number> {
  type Writes = Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
  const socket = net.Socket.prototype as unknown as Writes;
  const originals = { _write: socket._write, _writev: socket._writev };
  let writes = 0;
  for (const method of ['_write', '_writev'] as const) {
    socket[method] = function (this: net.Socket, ...args: unknown[]) {
      if (this.remotePort === port) writes++;
      return originals[method].apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    Object.assign(socket, originals);
  }
  return writes;
}

test('a write sends what it issues in one turn in one system call, and reports its statements', {
  skip: BACKEND === 'postgres' ? false : 'PostgreSQL only',
}, async () => {
  const fresh = await freshDatabase();
  const database = openDatabase(fresh.url);
  const commits: CommitStats[] = [];
  try {
    await database.migrate(ALL_MIGRATIONS);
    await database.write(async (trx) => {
      await countOrgs(trx, { prefix: 'warm%' }); // the pool's connection is made, and the statement parsed
    });
    database.onCommit((stats) => commits.push(stats));
    const at = '2026-11-28T00:00:00.000Z';
    const writes = await socketWrites(Number(new URL(fresh.url).port || 5432), async () => {
      await database.write(async (trx) => {
        // BEGIN, three inserts and a read, issued in one turn: one round trip, then the COMMIT's.
        for (const i of [1, 2, 3]) insertOrg(trx, { id: `org_wire_${i}`, name: `wire ${i}`, created_at: at });
        const { rows } = await countOrgs(trx, { prefix: 'org_wire_%' });
        assert.equal(Number(rows[0]?.n), 3);
      });
    });
    // Before: one write per statement (BEGIN, three inserts, the read, COMMIT: 6).
    assert.equal(writes, 2, 'one system call per round trip');
    assert.deepEqual(
      commits.map((c) => ({ roundTrips: c.roundTrips, statements: c.statements })),
      [{ roundTrips: 2, statements: 6 }],
    );
  } finally {
    await database.close();
    await fresh.drop();
  }
});

const preparedOnConnection = sql<{
  n: string;
}>`select count(*) as n from pg_prepared_statements where statement like ${'%org_wire_read%'}`;
// The alias marks its SQL (what pg_prepared_statements shows).
const readOrg = prepared<{ id: string }, { org_wire_read: string }>({ id: true }, (db, p) =>
  db.selectFrom('orgs').select('id as org_wire_read').where('id', '=', p.id),
);

const readOrgStar = prepared<{ id: string }, object>({ id: true }, (db, p) =>
  db.selectFrom('orgs').selectAll().where('id', '=', p.id).where('name', '<>', sql.lit('org_wire_read')),
);

test('a statement compiled once runs on the pool by name: parsed once per connection, not at every read', {
  skip: BACKEND === 'postgres' ? false : 'PostgreSQL only',
}, async () => {
  const fresh = await freshDatabase();
  const database = openDatabase(fresh.url, { poolSize: 1 }); // one connection: the reads and the check share it
  try {
    await database.migrate(ALL_MIGRATIONS);
    for (let i = 0; i < 3; i++) assert.deepEqual((await readOrg(database.db, { id: 'none' })).rows, []);
    // A read of `*` stays unnamed: a named one would fail once a migration adds a column (pg-write.ts).
    for (let i = 0; i < 3; i++) assert.deepEqual((await readOrgStar(database.db, { id: 'none' })).rows, []);
    // Before: 0 (Kysely sent it unnamed, parsed and planned at each of the three reads).
    assert.equal(Number((await preparedOnConnection.execute(database.db)).rows[0]?.n), 1);
  } finally {
    await database.close();
    await fresh.drop();
  }
});

test('a statement of `*` runs unnamed in a write too: a column added by a migration meanwhile does not fail it', {
  skip: BACKEND === 'postgres' ? false : 'PostgreSQL only',
}, async () => {
  const fresh = await freshDatabase();
  const database = openDatabase(fresh.url, { poolSize: 1 });
  try {
    await database.migrate(ALL_MIGRATIONS);
    const readInWrite = () => database.write(async (trx) => (await readOrgStar(trx, { id: 'none' })).rows);
    for (let i = 0; i < 2; i++) assert.deepEqual(await readInWrite(), []);
    // An expand-only migration, as a rolling deploy runs while this process still serves (docs/deploy.md).
    await sql`alter table orgs add column wire_extra integer`.execute(database.db);
    // Before: a named statement, and PostgreSQL refused it ("cached plan must not change result type").
    assert.deepEqual(await readInWrite(), []);
  } finally {
    await database.close();
    await fresh.drop();
  }
});
