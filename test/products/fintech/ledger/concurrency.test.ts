import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { Database } from '../../../../src/db/database.ts';
import { openDatabase } from '../../../../src/db/open.ts';
import { BACKEND, freshDatabase, MULTI_PROCESS_SKIP, type TestDatabase } from '../../../helpers/database.ts';
import { newTally, opArbitrary, runLedgerScenario } from '../../../helpers/ledger-property.ts';
import { run, type ServerProcess, spawnServer } from '../../../helpers/process.ts';
import { UNLIMITED, useServer } from '../../../helpers/server.ts';

// Bounded runs: each run is one org, 4 accounts and up to 30 operations sent at once (some twice).
// LEDGER_PROPERTY_RUNS=<n> runs a longer campaign by hand.
const ops = fc.array(opArbitrary, { minLength: 5, maxLength: 30 });
const runs = (usual: number) => Number(process.env.LEDGER_PROPERTY_RUNS ?? usual);

describe(`the ledger under concurrent money movements, one server (${BACKEND})`, () => {
  const server = useServer();

  test('invariants hold after every run; ledger verify exits 0', async (t) => {
    const tally = newTally();
    await fc.assert(
      fc.asyncProperty(ops, (o) => runLedgerScenario([server.url], server.database.db, o, tally)),
      { numRuns: runs(BACKEND === 'sqlite' ? 25 : 20) },
    );
    const verify = await run(['src/cli/main.ts', 'ledger', 'verify'], { DATABASE_URL: server.databaseUrl });
    assert.equal(verify.code, 0, verify.stdout);
    t.diagnostic(JSON.stringify(tally));
  });
});

describe('the ledger under concurrent money movements, two server processes on one PostgreSQL', {
  skip: MULTI_PROCESS_SKIP,
}, () => {
  let db: TestDatabase;
  let database: Database;
  let servers: ServerProcess[];
  before(async () => {
    db = await freshDatabase();
    const env = { ...UNLIMITED, DATABASE_URL: db.url };
    servers = [await spawnServer(env), await spawnServer(env)];
    database = openDatabase(db.url);
  });
  after(async () => {
    for (const s of servers ?? []) s.child.kill('SIGTERM');
    await Promise.all((servers ?? []).map((s) => s.exited));
    await database?.close();
    await db?.drop();
  });

  test('invariants hold after every run with requests spread over both processes', async (t) => {
    const tally = newTally();
    const urls = () => servers.map((s) => s.url);
    await fc.assert(
      fc.asyncProperty(ops, (o) => runLedgerScenario(urls(), database.db, o, tally)),
      { numRuns: runs(10) },
    );
    const verify = await run(['src/cli/main.ts', 'ledger', 'verify'], { DATABASE_URL: db.url });
    assert.equal(verify.code, 0, verify.stdout);
    t.diagnostic(JSON.stringify(tally));
  });
});
