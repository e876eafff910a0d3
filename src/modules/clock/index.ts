import { Type } from 'typebox';
import { runDueEverywhere } from '../../platform/clock/due.ts';
import { integer } from '../../platform/kit/settings.ts';
import { storedTime } from '../../platform/kit/time.ts';
import { defineModule } from '../../platform/module.ts';
import { clockRoutes } from './clock.routes.ts';

export { clockOps } from './clock.routes.ts';

export const ClockSettings = Type.Object({
  SANDBOX_CLOCK_SWEEP_SECONDS: integer(
    5,
    1,
    3600,
    'seconds between passes that run what came due on sandbox clocks as real time passed (an ACH cut-off)',
  ),
});

/**
 * The sandbox clock (docs/api.md#the-sandbox-clock): its two operations, and the background pass that runs what comes
 * due as real time moves every clock. What is due is declared by the modules that schedule it (`Module.due`).
 */
export const sandboxClock = defineModule({
  name: 'clock',
  tags: [
    {
      name: 'Sandbox clock',
      description:
        "Each org's sandbox runs on a clock of its own, which only moves forward; advancing it runs what falls due.",
    },
  ],
  settings: ClockSettings,
  install(app, { database, clock, withIdempotency, due }) {
    clockRoutes(app, { db: database.db, database, clock, sources: due, withIdempotency });
  },
  jobs: ({ database, clock, due, settings }) => [
    {
      what: 'sandbox clocks',
      everyMs: settings.SANDBOX_CLOCK_SWEEP_SECONDS * 1000,
      pass: async () => {
        // Every org whose sandbox has due work by real time, or a clock ahead of it, or an advance under way.
        const ahead = await database.db
          .selectFrom('sandbox_clocks')
          .select('org_id')
          .where((eb) => eb.or([eb('offset_ms', '>', 0), eb('target_ms', 'is not', null)]))
          .execute();
        const upTo = storedTime(clock());
        const waiting = await Promise.all(due.map((source) => source.orgsDue(database.db, upTo)));
        const orgs = new Set([...ahead.map((row) => row.org_id), ...waiting.flat()]);
        return runDueEverywhere({ database, clock, sources: due }, [...orgs]);
      },
    },
  ],
});
