import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { BACKEND, MULTI_PROCESS_SKIP } from '../../../helpers/database.ts';
import { useServer } from '../../../helpers/server.ts';
import { periods, runStatementScenario, steps } from '../../../helpers/statement-property.ts';
import { useTwoProcesses } from '../../../helpers/two-processes.ts';

/**
 * Statements add up for random periods after random movements (docs/api.md#balances-over-time-and-statements); see
 * test/helpers/statement-property.ts. STATEMENT_PROPERTY_RUNS=<n> runs a longer campaign by hand.
 */
const runs = (usual: number) => Number(process.env.STATEMENT_PROPERTY_RUNS ?? usual);
const MINUTE = 60_000;

describe(`statements add up, one server on a clock that steps by minutes (${BACKEND})`, () => {
  // The server's clock: a virtual time that runs with real time and jumps by whole minutes, back as well as forward
  // (a clock step back must not put an entry before an earlier one). Each run starts after the last one's latest.
  let virtual = Date.now() - 7 * 24 * 60 * MINUTE;
  let setAt = Date.now();
  let latest = virtual;
  const now = () => virtual + (Date.now() - setAt);
  const jump = (to: number) => {
    [virtual, setAt] = [to, Date.now()];
    latest = Math.max(latest, to);
  };
  const server = useServer({ TRANSFER_EXPIRY_SWEEP_SECONDS: '60' }, { clock: () => new Date(now()) });
  const timing = {
    now,
    pass: async (minutes: number) => jump(now() + minutes * MINUTE),
    // After the run: now is a minute past every entry the run wrote, however the clock stepped.
    settle: () => jump(Math.max(latest, now()) + MINUTE),
  };
  test('closing = opening + credits − debits; the list and the balances at both ends agree', async () => {
    await fc.assert(
      fc.asyncProperty(steps, periods, async (plan, asked) => {
        jump(Math.max(latest, now()) + 10 * MINUTE);
        await runStatementScenario([server.url], server.database.db, timing, plan, asked);
      }),
      { numRuns: runs(8) },
    );
  });
});

describe('statements add up, two server processes on one PostgreSQL, in real time', {
  skip: MULTI_PROCESS_SKIP,
}, () => {
  const two = useTwoProcesses();
  // Each process reads its own clock: real time, and a short pause between steps.
  const timing = {
    now: () => Date.now(),
    pass: (minutes: number) => sleep(Math.max(0, minutes) * 5),
    settle: () => {},
  };
  test('the same, with the writes of each step spread over both processes at once', async () => {
    await fc.assert(
      fc.asyncProperty(steps, periods, (plan, asked) =>
        runStatementScenario(two.urls(), two.database().db, timing, plan, asked),
      ),
      { numRuns: runs(5) },
    );
  });
});
