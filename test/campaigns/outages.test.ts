import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKEND, freshDatabase } from '../helpers/database.ts';
import { spawnServer } from '../helpers/process.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import { CAMPAIGN_ENV } from './load.ts';
import { assertNothingLost, oks, signUp, startLoad, unavailable } from './outage-load.ts';

/**
 * Outages (issue 11): PostgreSQL goes away under load and comes back (see outage-load.ts for what every answer
 * must be); the service must come back by itself. The SQLite disk's outages are in sqlite-disk.test.ts.
 */
describe('PostgreSQL cut off and back mid-load', { skip: BACKEND !== 'postgres' && 'PostgreSQL pass only' }, () => {
  test('503 while it is away, 200 again by itself, nothing acknowledged lost', async (t) => {
    const db = await freshDatabase();
    const target = new URL(db.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    target.host = `127.0.0.1:${proxy.port}`; // the server reaches the database only through the proxy
    const server = await spawnServer({ DATABASE_URL: target.toString(), ...CAMPAIGN_ENV });
    try {
      const key = await signUp(server);
      const load = startLoad(server.url, key);
      await load.until((a) => oks(a) >= 50, '50 creates');
      await proxy.cut();
      const cutAt = load.answers.length;
      await load.until((a) => unavailable(a.slice(cutAt)) >= 20, '20 answers of 503 while cut');
      // /metrics still answers while the database is away (its gauges that query the database are left out).
      const metrics = await fetch(`${server.url}/metrics`, { signal: AbortSignal.timeout(30_000) });
      assert.equal(metrics.status, 200);
      assert.match(await metrics.text(), /^plinth_http_requests_total\{/m);
      await proxy.restore();
      const restoredAt = load.answers.length;
      await load.until((a) => oks(a.slice(restoredAt)) >= 50, '50 creates after the database came back');
      await load.stop();
      t.diagnostic(`${load.answers.length} requests: ${oks(load.answers)} × 200, ${unavailable(load.answers)} × 503`);
      await assertNothingLost(server, key, load);
      server.child.kill('SIGTERM');
      assert.deepEqual(await server.exited, { code: 0, signal: null });
    } finally {
      server.child.kill('SIGKILL');
      await proxy.close();
      await db.drop();
    }
  });
});
