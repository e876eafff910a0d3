import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { type ServerProcess, spawnServer } from '../helpers/process.ts';
import { CAMPAIGN_ENV, connectionStorm, median, normalClient, openSlowSockets } from './load.ts';

/**
 * Slow and many clients (issue 11), the short run: hundreds of idle, slow-header and slow-body sockets held open
 * while a normal client keeps being answered, then a thousand connections opened at once. The server is its own
 * process (as in production), so its event loop is not the test's. No timing is asserted; the latencies are
 * printed, and `npm run campaign:clients` runs the full size and compares them with a baseline.
 */
const SLOW_PER_KIND = Number(process.env.CAMPAIGN_SLOW_PER_KIND ?? 100);
const STORM = Number(process.env.CAMPAIGN_STORM ?? 1000);

let db: TestDatabase;
let server: ServerProcess;
let key: string;
before(async () => {
  db = await freshDatabase();
  server = await spawnServer({ DATABASE_URL: db.url, ...CAMPAIGN_ENV });
  const signup = await fetch(`${server.url}/v1/sandbox/signup`, { method: 'POST' });
  key = ((await signup.json()) as { api_key: { key: string } }).api_key.key;
});
after(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
  await db.drop();
});

test(`${SLOW_PER_KIND * 3} idle and trickling sockets: a normal client is still answered`, async (t) => {
  const baseline = await normalClient(server.url, key, 20);
  const slow = await openSlowSockets(server.url, SLOW_PER_KIND, ['idle', 'slow-headers', 'slow-body']);
  try {
    const loaded = await normalClient(server.url, key, 40);
    assert.deepEqual(new Set(loaded.map((s) => s.status)), new Set([200]), 'every request answered 200');
    t.diagnostic(
      `normal client median: ${median(baseline.map((s) => s.ms)).toFixed(1)} ms alone, ` +
        `${median(loaded.map((s) => s.ms)).toFixed(1)} ms beside ${slow.open()} open slow sockets`,
    );
  } finally {
    slow.close();
  }
  assert.equal(server.child.exitCode, null, 'the server is still running');
  assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
});

test(`${STORM} connections opened at once: every one answered, no 5xx, no crash`, async (t) => {
  const byStatus = await connectionStorm(server.url, key, STORM);
  t.diagnostic(`answers by status: ${JSON.stringify(Object.fromEntries(byStatus))}`);
  assert.equal(byStatus.get(0) ?? 0, 0, 'connections without an answer');
  for (const status of byStatus.keys()) assert.ok(status < 500, `a ${status} answer`);
  assert.equal(byStatus.get(200), STORM);
  assert.equal(server.child.exitCode, null, 'the server is still running');
});
