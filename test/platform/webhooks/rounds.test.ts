/**
 * Issue 44: a round records the results of many attempts in one write, and writes an endpoint's `failing_since` once
 * per endpoint rather than once per success. The endpoint must still end as the last result recorded says: failing
 * after a failure, cleared after a success, whatever came before them in the same round.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AttemptResult } from '../../../src/modules/webhooks/engine/attempt.ts';
import type { Claimed } from '../../../src/modules/webhooks/engine/claims.repository.ts';
import { databaseRounds } from '../../../src/modules/webhooks/engine/rounds.ts';
import { eventually } from '../../helpers/receiver.ts';
import { startServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

const ok: AttemptResult = { status: 200, durationMs: 1, error: null, retryAfter: undefined };
const failed: AttemptResult = { status: 500, durationMs: 1, error: null, retryAfter: undefined };

test('a round of results to one endpoint leaves it as its last result says', async () => {
  const server = await startServer();
  try {
    await server.app.webhookDelivery.stop(0); // this test claims and records by itself
    const org = await client(server, 'rounds');
    const made = await org.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'] });
    assert.equal(made.status, 200, made.text);
    const endpointId = made.body.id as string;
    for (let i = 0; i < 4; i++)
      assert.equal((await org.post('/v1/fintech/accounts', { type: 'business', country: 'US' })).status, 200);
    await eventually(async () => ((await server.app.webhookDelivery.metrics.backlog()) >= 4 ? true : undefined));
    const failingSince = async () =>
      (
        await server.database.db
          .selectFrom('webhook_endpoints')
          .select('failing_since')
          .where('id', '=', endpointId)
          .executeTakeFirstOrThrow()
      ).failing_since;
    const rounds = databaseRounds(server.database, 16, false, [60_000]);
    const round = (finished: { claimed: Claimed; result: AttemptResult }[]) => {
      const now = new Date();
      return rounds({
        now: now.toISOString(),
        leaseUntil: new Date(now.getTime() + 60_000).toISOString(),
        take: 0,
        load: { byMode: { live: 0, sandbox: 0 }, orgs: [], endpoints: [] },
        finished: finished.map(({ claimed, result }) => ({
          delivery: claimed.delivery,
          result,
          at: now.toISOString(),
        })),
      });
    };
    const now = new Date();
    const { claimed } = await rounds({
      now: now.toISOString(),
      leaseUntil: new Date(now.getTime() + 60_000).toISOString(),
      take: 4,
      load: { byMode: { live: 0, sandbox: 0 }, orgs: [], endpoints: [] },
      finished: [],
    });
    assert.equal(claimed.length, 4);
    const [a, b, c, d] = [claimed[0]!, claimed[1]!, claimed[2]!, claimed[3]!];

    // A success, a failure, a success: cleared (the second success clears what the failure set).
    const first = await round([
      { claimed: a, result: ok },
      { claimed: b, result: failed },
      { claimed: c, result: ok },
    ]);
    assert.deepEqual(first.outcomes, ['succeeded', 'retrying', 'succeeded']);
    assert.equal(await failingSince(), null);

    // Then a failure alone: failing.
    const second = await round([{ claimed: d, result: failed }]);
    assert.deepEqual(second.outcomes, ['retrying']);
    assert.notEqual(await failingSince(), null);
  } finally {
    await server.close();
  }
});
