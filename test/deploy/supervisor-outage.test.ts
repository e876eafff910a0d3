import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CAMPAIGN_ENV } from '../campaigns/load.ts';
import { MULTI_PROCESS_SKIP } from '../helpers/database.ts';
import { PRIVATE_CLUSTER_SKIP, startPrivateCluster } from '../helpers/postgres-cluster.ts';
import { type ServerProcess, spawnServer } from '../helpers/process.ts';
import { freePort } from '../helpers/redis.ts';
import { call } from '../helpers/server.ts';
import { CLOSE, listeningPids, metric, servingPids, until } from '../helpers/supervisor.ts';

const US = { type: 'business', country: 'US' };

/** The largest "N in a row" of the supervisor's lines about failed start-ups so far. */
function mostInARow(stderr: string): number {
  return Math.max(0, ...[...stderr.matchAll(/failed at start-up \(.*\); (\d+) in a row/g)].map((m) => Number(m[1])));
}

describe('the supervisor through a PostgreSQL outage (issue 22)', {
  skip: MULTI_PROCESS_SKIP || PRIVATE_CLUSTER_SKIP,
}, () => {
  const bound = { timeout: 10 * 60_000 }; // every wait below has its own bound; this one catches anything else
  test(
    'a replacement that cannot start never takes the healthy worker down; both serve once the database is back',
    bound,
    async (t) => {
      // A cluster of the test's own: this one is stopped and started, the shared one serves every other test.
      const database = await startPrivateCluster();
      let server: ServerProcess | undefined;
      try {
        server = await spawnServer({ ...CAMPAIGN_ENV, DATABASE_URL: database.url, WEB_CONCURRENCY: '2' });
        const { url, child } = server;
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const alive = () =>
          child.exitCode === null || assert.fail(`the supervisor exited (${child.exitCode}): ${stderr}`);
        const first = server;
        const [victim, survivor] = await until(() => {
          const pids = listeningPids(first);
          return pids.length === 2 ? pids : undefined;
        }, 'both workers listening');
        const signup = await call(url, 'POST', '/v1/sandbox/signup', { headers: CLOSE });
        const key = (signup.body as { api_key: { key: string } }).api_key.key;
        assert.equal((await call(url, 'POST', '/v1/fintech/accounts', { key, json: US, headers: CLOSE })).status, 200);

        await database.stop();
        process.kill(victim!, 'SIGKILL');
        const outageAt = Date.now();
        // The report: the supervisor gave up after five failed start-ups. Wait past that, watching it stay.
        await until(
          async () => alive() && ((await metric(url, 'plinth_supervisor_worker_start_failures_total')) ?? 0) >= 6,
          'six failed start-ups of the replacement',
          180_000,
        );
        alive();
        assert.equal((await call(url, 'GET', '/healthz')).status, 200, 'the surviving worker is alive');
        const ready = await call(url, 'GET', '/readyz');
        assert.equal(ready.status, 503, 'not ready while the database is away');
        assert.equal((ready.body as { code: string }).code, 'service_unavailable');
        const refused = await call(url, 'POST', '/v1/fintech/accounts', { key, json: US });
        assert.equal(refused.status, 503);
        // /metrics still answers (its gauges that query the database are left out) and shows the missing worker.
        assert.equal((await call(url, 'GET', '/metrics')).status, 200);
        assert.equal(await metric(url, 'plinth_supervisor_workers_missing'), 1);
        // At most one line per 30 s while the replacement keeps failing (plus the first), and never "giving up".
        const failureLines = stderr.split('\n').filter((l) => /failed at start-up/.test(l));
        assert.ok(failureLines.length >= 1, stderr);
        assert.ok(failureLines.length <= 1 + Math.floor((Date.now() - outageAt) / 30_000), stderr);
        assert.doesNotMatch(stderr, /giving up/);

        await database.start();
        const backAt = Date.now();
        await until(
          async () => (await call(url, 'POST', '/v1/fintech/accounts', { key, json: US })).status === 200,
          'a create answered 200 after the database came back',
        );
        const servingAfterMs = Date.now() - backAt;
        await until(async () => (await metric(url, 'plinth_supervisor_workers_missing')) === 0, 'no worker missing');
        const bothAfterMs = Date.now() - backAt;
        t.diagnostic(`database back: 200 after ${servingAfterMs} ms, both workers after ${bothAfterMs} ms`);
        t.diagnostic(`supervisor's stderr during the outage:\n${stderr}`);

        // Both workers serve: the survivor and the replacement (a new pid), never the killed one.
        const from = server.lines.length;
        for (let i = 0; i < 20; i++) {
          const reply = await call(url, 'POST', '/v1/fintech/accounts', {
            key,
            json: US,
            headers: CLOSE,
          });
          assert.equal(reply.status, 200);
        }
        const pids = servingPids(server, from);
        assert.equal(pids.size, 2, 'two workers served');
        assert.ok(pids.has(survivor!), 'the survivor is one of them');
        assert.ok(!pids.has(victim!), 'the killed worker is gone');
        assert.equal((await call(url, 'GET', '/readyz')).status, 200);

        child.kill('SIGTERM');
        assert.deepEqual(await server.exited, { code: 0, signal: null });
      } finally {
        server?.child.kill('SIGKILL');
        await database.destroy();
      }
    },
  );

  // Issue 30: with both killed (as an OOM kill would), no worker served, and the supervisor gave up within seconds.
  test(
    'both workers killed during the outage: it keeps retrying, and both serve when the database returns',
    bound,
    async (t) => {
      const database = await startPrivateCluster();
      let server: ServerProcess | undefined;
      try {
        // A fixed port: once no worker holds a port 0 listener, a new worker would be given another port.
        const PORT = String(await freePort());
        server = await spawnServer({ ...CAMPAIGN_ENV, DATABASE_URL: database.url, WEB_CONCURRENCY: '2', PORT });
        const { url, child } = server;
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const alive = () =>
          child.exitCode === null || assert.fail(`the supervisor exited (${child.exitCode}): ${stderr}`);
        const first = server;
        const killed = await until(() => {
          const pids = listeningPids(first);
          return pids.length === 2 ? pids : undefined;
        }, 'both workers listening');

        await database.stop();
        for (const pid of killed) process.kill(pid, 'SIGKILL');
        // No worker serves, so /metrics has no one to answer: the supervisor's own lines are what there is to watch.
        // It gave up at the fifth failure in a row; wait for a line that counts more (one line per 30 s at most).
        await until(
          () => alive() && mostInARow(stderr) > 5,
          'a line counting more than five failures in a row',
          180_000,
        );
        alive();
        assert.doesNotMatch(stderr, /giving up/);

        await database.start();
        await until(async () => (await metric(url, 'plinth_supervisor_workers_missing')) === 0, 'both workers back');
        t.diagnostic(`supervisor's stderr:\n${stderr}`);
        const signup = await call(url, 'POST', '/v1/sandbox/signup', { headers: CLOSE });
        assert.equal(signup.status, 200);
        const key = (signup.body as { api_key: { key: string } }).api_key.key;
        // Both serve (a new worker may take a moment to get its first connection), neither of them a killed one.
        const from = server.lines.length;
        const running = server;
        const pids = await until(async () => {
          const reply = await call(url, 'POST', '/v1/fintech/accounts', { key, json: US, headers: CLOSE });
          assert.equal(reply.status, 200);
          const served = servingPids(running, from);
          return served.size === 2 ? served : undefined;
        }, 'two workers serving creates');
        for (const pid of killed) assert.ok(!pids.has(pid), 'only new workers serve');

        child.kill('SIGTERM');
        assert.deepEqual(await server.exited, { code: 0, signal: null });
      } finally {
        server?.child.kill('SIGKILL');
        await database.destroy();
      }
    },
  );
});
