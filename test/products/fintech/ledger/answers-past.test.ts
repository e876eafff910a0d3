import { describe, test } from 'node:test';
import fc from 'fast-check';
import { BACKEND, MULTI_PROCESS_SKIP } from '../../../helpers/database.ts';
import { plans, runPastScenario } from '../../../helpers/past-property.ts';
import { UNLIMITED, useServer } from '../../../helpers/server.ts';
import { useTwoProcesses } from '../../../helpers/two-processes.ts';

/**
 * An answer about the past never changes (docs/api.md#balances-over-time-and-statements): balances and statements
 * asked about moments near now while movements run, asked again once they are over, answer the same; see
 * test/helpers/past-property.ts. PAST_PROPERTY_RUNS=<n> runs a longer campaign by hand.
 */
const runs = (usual: number) => Number(process.env.PAST_PROPERTY_RUNS ?? usual);

describe(`answers about the past never change, one server (${BACKEND})`, () => {
  const server = useServer(UNLIMITED);
  test('balances and statements near now, asked again later, answer the same', async () => {
    await fc.assert(
      fc.asyncProperty(plans, (plan) => runPastScenario([server.url], plan)),
      { numRuns: runs(4), endOnFailure: true },
    );
  });
});

describe('answers about the past never change, two server processes on one PostgreSQL', {
  skip: MULTI_PROCESS_SKIP,
}, () => {
  const two = useTwoProcesses();
  test('the same, with the writes and the questions spread over both processes', async () => {
    await fc.assert(
      fc.asyncProperty(plans, (plan) => runPastScenario(two.urls(), plan)),
      { numRuns: runs(4), endOnFailure: true },
    );
  });
});
