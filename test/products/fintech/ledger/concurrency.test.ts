import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { BACKEND, MULTI_PROCESS_SKIP } from '../../../helpers/database.ts';
import { newTally, opArbitrary, runLedgerScenario } from '../../../helpers/ledger-property.ts';
import { run } from '../../../helpers/process.ts';
import { useServer } from '../../../helpers/server.ts';
import { useTwoProcesses } from '../../../helpers/two-processes.ts';

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
  const two = useTwoProcesses();

  test('invariants hold after every run with requests spread over both processes', async (t) => {
    const tally = newTally();
    const { urls } = two;
    await fc.assert(
      fc.asyncProperty(ops, (o) => runLedgerScenario(urls(), two.database().db, o, tally)),
      { numRuns: runs(10) },
    );
    const verify = await run(['src/cli/main.ts', 'ledger', 'verify'], { DATABASE_URL: two.databaseUrl() });
    assert.equal(verify.code, 0, verify.stdout);
    t.diagnostic(JSON.stringify(tally));
  });
});
