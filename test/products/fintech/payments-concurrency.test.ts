import { describe, test } from 'node:test';
import fc from 'fast-check';
import { BACKEND, MULTI_PROCESS_SKIP } from '../../helpers/database.ts';
import { late, ops, outcomes, runPaymentsScenario } from '../../helpers/payments-property.ts';
import { useServer } from '../../helpers/server.ts';
import { useTwoProcesses } from '../../helpers/two-processes.ts';

// Bounded runs; PAYMENTS_PROPERTY_RUNS=<n> runs a longer campaign by hand (test/helpers/payments-property.ts).
const runs = (usual: number) => Number(process.env.PAYMENTS_PROPERTY_RUNS ?? usual);

describe(`payments under concurrency, one server (${BACKEND})`, () => {
  const server = useServer();
  test('payments, inbound money, outcomes, transfers, reversals and clock advances at once: every payment agrees with its transfer, each change once; balances add up; ledger verify passes', async (t) => {
    const tally: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(ops, outcomes, late, (o, p, l) =>
        runPaymentsScenario([server.url], server.database.db, o, p, l, tally),
      ),
      { numRuns: runs(8) },
    );
    t.diagnostic(JSON.stringify(tally));
  });
});

describe('payments under concurrency, two server processes on one PostgreSQL', { skip: MULTI_PROCESS_SKIP }, () => {
  const two = useTwoProcesses();
  test('the same, with every request spread over both processes', async (t) => {
    const tally: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(ops, outcomes, late, (o, p, l) =>
        runPaymentsScenario(two.urls(), two.database().db, o, p, l, tally),
      ),
      { numRuns: runs(6) },
    );
    t.diagnostic(JSON.stringify(tally));
  });
});
