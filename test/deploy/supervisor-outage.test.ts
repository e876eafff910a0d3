import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CAMPAIGN_ENV } from '../campaigns/load.ts';
import { MULTI_PROCESS_SKIP } from '../helpers/database.ts';
import { PRIVATE_CLUSTER_SKIP, startPrivateCluster } from '../helpers/postgres-cluster.ts';
import { type ServerProcess, spawnServer } from '../helpers/process.ts';
import { call } from '../helpers/server.ts';

const US = { type: 'business', country: 'US' };
/** Requests before the kill close their connection, so that no pooled one leads to the worker about to die. */
const CLOSE = { connection: 'close' };

/** Polls `check` until it returns something truthy (or throws after `ms`); phases advance on what is observed. */
async function until<T>(check: () => Promise<T> | T, what: string, ms = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`never saw ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The pids of the workers whose log says they listen, in order. */
function listeningPids(server: ServerProcess): number[] {
  return server.lines.filter((l) => l.includes('Server listening at')).map((l) => JSON.parse(l).pid as number);
}

/**
 * One sample of a metric without labels from /metrics (whichever worker answers), or undefined; also undefined when
 * no answer came within 10 s, which the polls below wait past while checking that the supervisor lives. (A
 * connection that arrives as a worker is killed can be handed to the dead worker by node:cluster and never answered.)
 */
async function metric(url: string, name: string): Promise<number | undefined> {
  const text = await fetch(`${url}/metrics`, { headers: CLOSE, signal: AbortSignal.timeout(10_000) }).then(
    (r) => r.text(),
    () => '',
  );
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
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
        const pids = new Set(
          server.lines
            .slice(from)
            .map((l) => JSON.parse(l))
            .filter((l) => l.msg === 'request')
            .map((l) => l.pid as number),
        );
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
});
