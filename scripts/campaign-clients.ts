/**
 * Slow and many clients, the full run (`npm run campaign:clients`; the short run is test/campaigns/clients.test.ts).
 * A server process on a temporary SQLite database; a normal client's latency alone (the baseline, measured in this
 * run), then beside 1,200 idle, slow-header and slow-body sockets; then 5,000 connections opened at once. Fails when
 * a request is not answered 200, or when the normal client's median under load is over 5× its baseline (+ 20 ms
 * of slack for a 2-core machine). Loopback only; every loop bounded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CAMPAIGN_ENV, connectionStorm, median, normalClient, openSlowSockets } from '../test/campaigns/load.ts';
import { spawnServer } from '../test/helpers/process.ts';

const SLOW_PER_KIND = 400;
const STORM = 5000;
const REQUESTS = 200;

const dir = mkdtempSync(join(tmpdir(), 'plinth-clients-'));
const server = await spawnServer({ DATABASE_URL: `sqlite:${join(dir, 'plinth.db')}`, ...CAMPAIGN_ENV });
const failures: string[] = [];
const p95 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length * 0.95)]!;
try {
  const signup = await fetch(`${server.url}/v1/sandbox/signup`, { method: 'POST' });
  const key = ((await signup.json()) as { api_key: { key: string } }).api_key.key;
  const baseline = (await normalClient(server.url, key, REQUESTS)).map((s) => s.ms);
  const slow = await openSlowSockets(server.url, SLOW_PER_KIND, ['idle', 'slow-headers', 'slow-body']);
  const samples = await normalClient(server.url, key, REQUESTS);
  const held = slow.open();
  slow.close();
  const loaded = samples.map((s) => s.ms);
  const bad = samples.filter((s) => s.status !== 200).length;
  console.log(
    `normal client, ${REQUESTS} requests alone: median ${median(baseline).toFixed(1)} ms, p95 ${p95(baseline).toFixed(1)} ms`,
  );
  console.log(
    `beside ${held} of ${SLOW_PER_KIND * 3} slow sockets: median ${median(loaded).toFixed(1)} ms, ` +
      `p95 ${p95(loaded).toFixed(1)} ms, ${bad} not 200`,
  );
  if (bad > 0) failures.push(`${bad} requests of the normal client were not answered 200`);
  if (median(loaded) > 5 * median(baseline) + 20) failures.push('the normal client slowed over 5× its baseline');
  const storm = await connectionStorm(server.url, key, STORM);
  console.log(`${STORM} connections at once, answers by status: ${JSON.stringify(Object.fromEntries(storm))}`);
  if (storm.get(200) !== STORM) failures.push('not every connection of the storm was answered 200');
  if (server.child.exitCode !== null) failures.push('the server died');
} finally {
  server.child.kill('SIGTERM');
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  failures.length === 0 ? 'campaign clients: passed' : `campaign clients: FAILED\n- ${failures.join('\n- ')}`,
);
process.exit(failures.length === 0 ? 0 : 1);
