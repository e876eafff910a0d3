import { describe, test } from 'node:test';
import fc from 'fast-check';
import { BACKEND, MULTI_PROCESS_SKIP } from '../../../helpers/database.ts';
import { movement, resolutions, runPendingScenario } from '../../../helpers/pending-property.ts';
import { useServer } from '../../../helpers/server.ts';
import { useTwoProcesses } from '../../../helpers/two-processes.ts';

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
  const two = useTwoProcesses();
  test('the same, with every request spread over both processes', async () => {
    const { urls } = two;
    await fc.assert(
      fc.asyncProperty(movements, resolutions, (m, r) => runPendingScenario(urls(), two.database().db, m, r)),
      { numRuns: runs(8) },
    );
  });
});
