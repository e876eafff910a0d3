import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { get, post, signIn } from '../../helpers/dashboard.ts';
import { flood } from '../../helpers/flood.ts';
import { allEntries } from '../../helpers/request-log.ts';
import { startServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

/** The key's limit in this test: requests per second, with an equal burst. */
const RATE = 5;
const FLOOD_MS = 3000;
const CONNECTIONS = 16;

// The short form of `npm run campaign:request-log-flood` (SECURITY.md), on the backend the suite runs on.
describe('a flood of refused requests and the request log (issue 30)', () => {
  test("a key's entries stay within the bound of docs/api.md: what its limit admits, one summary a second", async () => {
    const server = await startServer({ RATE_LIMIT_SANDBOX: String(RATE) });
    try {
      const flooder = await client(server, 'log-flood');
      const { statuses, seconds } = await flood(server.url, flooder.key, FLOOD_MS, CONNECTIONS);
      const admitted = statuses.get(200) ?? 0;
      const refused = statuses.get(429) ?? 0;
      assert.deepEqual([...statuses.keys()].sort(), admitted > 0 ? [200, 429] : [429], 'only 200s and 429s');
      // The documented bound: burst + rate × seconds admitted, and one summary per second the flood touched.
      const bound = RATE + RATE * Math.ceil(seconds) + Math.ceil(seconds) + 1;
      // Recorded one by one, the refusals alone would pass the bound.
      assert.ok(refused > 2 * bound, `a flood: ${refused} refused`);
      await server.app.requestLog.flush();
      const rows = await server.database.db
        .selectFrom('request_logs')
        .selectAll()
        .where('api_key_hint', '=', `sk_test_…${flooder.key.slice(-4)}`)
        .execute();
      console.log(`admitted ${admitted}, refused ${refused} in ${seconds} s: ${rows.length} rows`);
      assert.ok(rows.length <= bound, `${rows.length} rows for the key, over the bound of ${bound}`);
      const ones = rows.filter((r) => r.status === 200);
      assert.equal(ones.length, admitted, 'every admitted request has its own entry');
      assert.ok(ones.every((r) => r.count === null));
      const summaries = rows.filter((r) => r.status === 429);
      assert.ok(summaries.length <= Math.ceil(seconds) + 1, `${summaries.length} summaries in ${seconds} s`);
      assert.ok(summaries.every((r) => r.error_code === 'rate_limited' && Number(r.count) >= 1));
      const counted = summaries.reduce((sum, r) => sum + Number(r.count), 0);
      assert.equal(counted, refused, 'every refused request is counted, once');
      // The API shows the count (read with another key of the org: the flooder's budget is spent).
      const reader = await client(server, 'log-flood');
      const listed = await allEntries(reader, '&status=429');
      assert.equal(listed.length, summaries.length);
      assert.equal(
        listed.reduce((sum, e) => sum + e.count, 0),
        refused,
      );
      assert.ok((await allEntries(reader, '&status=200')).every((e) => e.count === null));
      // And so does the dashboard, on its list and on the entry's page.
      const cookie = await signIn(server.url, reader.key);
      const list = await get(server.url, '/dashboard/requests?status=429', cookie);
      assert.ok(list.html.includes(` · ${listed[0].count} refused in this second`), list.html);
      const one = await get(server.url, `/dashboard/requests/${listed[0].id}`, cookie);
      assert.ok(one.html.includes(`<dd>${listed[0].count}, refused by the rate limit in this second`), one.html);
    } finally {
      await server.close();
    }
  });

  test('refused dashboard actions are counted the same way, as source dashboard', async () => {
    const server = await startServer({ RATE_LIMIT_SANDBOX: String(RATE) });
    try {
      const api = await client(server, 'log-flood-dashboard');
      const cookie = await signIn(server.url, api.key);
      const started = Date.now();
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const form = await post(server.url, '/dashboard/accounts/acct_X/freeze', { reason: 'other' }, { cookie });
        statuses.push(form.status);
      }
      const seconds = (Date.now() - started) / 1000;
      const refused = statuses.filter((s) => s === 429).length;
      assert.ok(refused > 20, `refused ${refused} of 40: ${statuses}`);
      await server.app.requestLog.flush();
      const rows = await server.database.db
        .selectFrom('request_logs')
        .selectAll()
        .where('source', '=', 'dashboard')
        .where('status', '=', 429)
        .execute();
      assert.ok(rows.length <= Math.ceil(seconds) + 1, `${rows.length} entries for ${refused} refusals`);
      assert.equal(
        rows.reduce((sum, r) => sum + Number(r.count), 0),
        refused,
      );
    } finally {
      await server.close();
    }
  });
});
