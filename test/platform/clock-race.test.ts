import { describe, test } from 'node:test';
import fc from 'fast-check';
import { plan, runClockScenario } from '../helpers/clock-property.ts';
import { BACKEND, MULTI_PROCESS_SKIP } from '../helpers/database.ts';
import { useServer } from '../helpers/server.ts';
import { useTwoProcesses } from '../helpers/two-processes.ts';

// Bounded runs; CLOCK_PROPERTY_RUNS=<n> runs a longer campaign by hand (test/helpers/clock-property.ts).
const runs = (usual: number) => Number(process.env.CLOCK_PROPERTY_RUNS ?? usual);

describe(`the sandbox clock advanced from several requests at once, one server (${BACKEND})`, () => {
  const server = useServer();
  test('each due payment step and expiry runs exactly once; balances add up; ledger verify passes', async (t) => {
    const tally: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(plan, (p) => runClockScenario([server.url], server.database.db, p, tally)),
      { numRuns: runs(6) },
    );
    t.diagnostic(JSON.stringify(tally));
  });
});

describe('the sandbox clock advanced by two server processes at once, on one PostgreSQL', {
  skip: MULTI_PROCESS_SKIP,
}, () => {
  const two = useTwoProcesses();
  test('the same, the advances spread over both processes', async (t) => {
    const tally: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(plan, (p) => runClockScenario(two.urls(), two.database().db, p, tally)),
      { numRuns: runs(6) },
    );
    t.diagnostic(JSON.stringify(tally));
  });
});
