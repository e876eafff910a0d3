import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { Database } from '../../../../src/db/database.ts';
import { openDatabase } from '../../../../src/db/open.ts';
import { BACKEND, freshDatabase, MULTI_PROCESS_SKIP, type TestDatabase } from '../../../helpers/database.ts';
import { movement, resolutions, runPendingScenario } from '../../../helpers/pending-property.ts';
import { type ServerProcess, spawnServer } from '../../../helpers/process.ts';
import { UNLIMITED, useServer } from '../../../helpers/server.ts';

// Bounded runs; PENDING_PROPERTY_RUNS=<n> runs a longer campaign by hand.
const runs = (usual: number) => Number(process.env.PENDING_PROPERTY_RUNS ?? usual);
const movements = fc.array(movement, { minLength: 5, maxLength: 30 });

describe(`pending transfers under concurrency, one server (${BACKEND})`, () => {
  const server = useServer();
  test('every hold ends once; balances add up; nothing stays held; ledger verify passes', async () => {
    await fc.assert(
      fc.asyncProperty(movements, resolutions, (m, r) => runPendingScenario([server.url], server.database.db, m, r)),
      { numRuns: runs(12) },
    );
  });
});

describe('pending transfers under concurrency, two server processes on one PostgreSQL', {
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
  test('the same, with every request spread over both processes', async () => {
    const urls = () => servers.map((s) => s.url);
    await fc.assert(
      fc.asyncProperty(movements, resolutions, (m, r) => runPendingScenario(urls(), database.db, m, r)),
      { numRuns: runs(8) },
    );
  });
});
