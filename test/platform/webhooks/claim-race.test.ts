/**
 * Issue 23: on PostgreSQL several processes claim at once. Two claims racing on two connections must take turns, so
 * that each counts the other's attempts: together they take no more of one organisation than its bound (8 in
 * sandbox with WEBHOOK_CONCURRENCY 16), and no row twice.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../../src/db/open.ts';
import { claimer } from '../../../src/modules/webhooks/engine/claim.ts';
import { MULTI_PROCESS_SKIP } from '../../helpers/database.ts';
import { eventually } from '../../helpers/receiver.ts';
import { startServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

test('claims racing on two connections take turns: together at most 8 of one sandbox organisation', {
  skip: MULTI_PROCESS_SKIP,
}, async () => {
  const server = await startServer();
  const handles = [openDatabase(server.databaseUrl), openDatabase(server.databaseUrl)];
  try {
    await server.app.webhookDelivery.stop(0); // this test claims by itself
    const org = await client(server, 'racer');
    for (let n = 0; n < 16; n++) {
      const made = await org.post('/v1/webhook_endpoints', { url: `http://127.0.0.1:9/${n}`, enabled_events: ['*'] });
      assert.equal(made.status, 200, made.text);
    }
    for (let i = 0; i < 2; i++)
      assert.equal((await org.post('/v1/fintech/accounts', { type: 'business', country: 'US' })).status, 200);
    // 32 due deliveries, once the events are numbered (off the write, on PostgreSQL).
    const pending = () => server.app.webhookDelivery.metrics.backlog();
    await eventually(async () => ((await pending()) >= 32 ? true : undefined));
    const now = new Date();
    const lease = new Date(now.getTime() + 60_000);
    const claimed = await Promise.all(
      handles.map((database) => claimer(database, 16, true).claim(now, () => 16, lease)),
    );
    const ids = claimed.flatMap((c) => c.claimed.map((one) => one.delivery.id));
    assert.equal(ids.length, 8, `claimed ${claimed.map((c) => c.claimed.length).join(' + ')}`);
    assert.equal(new Set(ids).size, ids.length, 'no delivery claimed twice');
  } finally {
    for (const database of handles) await database.close();
    await server.close();
  }
});
