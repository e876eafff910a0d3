import { describe, test } from 'node:test';
import fc from 'fast-check';
import { BACKEND, MULTI_PROCESS_SKIP } from '../../../helpers/database.ts';
import { late, movement, resolutions, runPendingScenario } from '../../../helpers/pending-property.ts';
import { useServer } from '../../../helpers/server.ts';
import { useTwoProcesses } from '../../../helpers/two-processes.ts';

// Bounded runs; PENDING_PROPERTY_RUNS=<n> runs a longer campaign by hand. Reversals race the holds' resolutions
// (test/helpers/reversal-property.ts).
const runs = (usual: number) => Number(process.env.PENDING_PROPERTY_RUNS ?? usual);
const movements = fc.array(movement, { minLength: 5, maxLength: 30 });

describe(`pending transfers under concurrency, one server (${BACKEND})`, () => {
  const server = useServer();
  test('every hold ends once; reversals add up; balances add up; nothing stays held; ledger verify passes', async (t) => {
    const reversals: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(movements, resolutions, late, (m, r, l) =>
        runPendingScenario([server.url], server.database.db, m, r, l, reversals),
      ),
      { numRuns: runs(12) },
    );
    t.diagnostic(`reversals: ${JSON.stringify(reversals)}`);
  });
});

describe('pending transfers under concurrency, two server processes on one PostgreSQL', {
  skip: MULTI_PROCESS_SKIP,
}, () => {
  const two = useTwoProcesses();
  test('the same, with every request spread over both processes', async (t) => {
    const { urls } = two;
    const reversals: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(movements, resolutions, late, (m, r, l) =>
        runPendingScenario(urls(), two.database().db, m, r, l, reversals),
      ),
      { numRuns: runs(8) },
    );
    t.diagnostic(`reversals: ${JSON.stringify(reversals)}`);
  });
});
