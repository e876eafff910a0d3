import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { BACKEND, freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { spawnServer } from '../helpers/process.ts';
import { UNLIMITED } from '../helpers/server.ts';

// SQLite's settings are the server's own pragmas on its own connection, so nothing outside can weaken them; a
// PostgreSQL database can carry a default that every new session inherits, which is what this provokes.
describe('start-up refuses a PostgreSQL database that could lose an acknowledged commit', {
  skip: BACKEND === 'postgres' ? false : 'a database-level setting needs PostgreSQL; runs in the PostgreSQL pass',
}, () => {
  let db: TestDatabase;
  const alter = async (value: string) => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const name = (await client.query<{ name: string }>('select current_database() as name')).rows[0]!.name;
      await client.query(`alter database ${name} set synchronous_commit = ${value}`);
    } finally {
      await client.end();
    }
  };
  before(async () => {
    db = await freshDatabase();
  });
  after(async () => db.drop());

  for (const value of ['off', 'local']) {
    test(`synchronous_commit = ${value}: exits before listening, with one line that names it`, async () => {
      await alter(value);
      // A server that starts anyway is stopped at once, so that the failure shows instead of a hanging test.
      const outcome = await spawnServer({ ...UNLIMITED, DATABASE_URL: db.url }).then(
        (server) => {
          server.child.kill('SIGKILL');
          return 'it listened';
        },
        (error: Error) => error.message,
      );
      const stderr = outcome.replace(/^server exited 1 before listening: /, '');
      assert.equal(
        stderr,
        `plinth: failed to start: PostgreSQL synchronous_commit is ${value}: an acknowledged commit could be lost\n`,
      );
    });
  }

  test('synchronous_commit = on again: the same database is served', async () => {
    await alter('on');
    const server = await spawnServer({ ...UNLIMITED, DATABASE_URL: db.url });
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exited, { code: 0, signal: null });
  });
});
