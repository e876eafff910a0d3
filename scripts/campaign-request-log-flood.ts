/**
 * The request log under a flood, the full run (`npm run campaign:request-log-flood`; the short run is
 * test/platform/requests/flood.test.ts). A server process with the default sandbox limit (25 requests per second);
 * one sandbox key floods it from 48 connections for 20 s while a second organisation sends 20 requests a second,
 * within its limit. Fails when the flooder's key has more entries than docs/api.md's bound (what its limit admits,
 * plus one per second), when its refused requests are not all counted, or when the second organisation lost an
 * entry. On SQLite by default; on PostgreSQL with PLINTH_TEST_BACKEND=postgres TEST_POSTGRES_URL=…, as the tests.
 * Loopback only; every loop bounded.
 */
import { openDatabase } from '../src/db/open.ts';
import { CAMPAIGN_ENV } from '../test/campaigns/load.ts';
import { freshDatabase } from '../test/helpers/database.ts';
import { flood } from '../test/helpers/flood.ts';
import { spawnServer } from '../test/helpers/process.ts';

const RATE = 25;
const CONNECTIONS = 48;
const FLOOD_MS = 20_000;

const fresh = await freshDatabase();
const env = { ...CAMPAIGN_ENV, DATABASE_URL: fresh.url, RATE_LIMIT_SANDBOX: String(RATE) };
const server = await spawnServer(env);
const trim = setInterval(() => (server.lines.length = 0), 1000); // one log line per request: not kept here
const failures: string[] = [];
const signup = async () => {
  const reply = await fetch(`${server.url}/v1/sandbox/signup`, { method: 'POST' });
  return ((await reply.json()) as { api_key: { key: string } }).api_key.key;
};
/** A well-behaved client: one request every 50 ms until `until`; the request ids it was answered 200 with. */
const steady = async (key: string, until: number) => {
  const ids: string[] = [];
  while (Date.now() < until) {
    const reply = await fetch(`${server.url}/v1/fintech/accounts`, { headers: { authorization: `Bearer ${key}` } });
    await reply.arrayBuffer();
    if (reply.status === 200) ids.push(reply.headers.get('request-id')!);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return ids;
};
try {
  const [flooder, victim] = [await signup(), await signup()];
  const [{ statuses, seconds }, victimIds] = await Promise.all([
    flood(server.url, flooder, FLOOD_MS, CONNECTIONS),
    steady(victim, Date.now() + FLOOD_MS),
  ]);
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  server.child.kill('SIGTERM'); // a graceful shutdown writes every entry still waiting
  await server.exited;
  const admitted = statuses.get(200) ?? 0;
  const refused = statuses.get(429) ?? 0;
  const bound = RATE + RATE * Math.ceil(seconds) + Math.ceil(seconds) + 1;
  const database = openDatabase(fresh.url);
  try {
    const rows = await database.db
      .selectFrom('request_logs')
      .select(['id', 'status', 'count', 'api_key_hint'])
      .where('api_key_hint', 'in', [`sk_test_…${flooder.slice(-4)}`, `sk_test_…${victim.slice(-4)}`])
      .execute();
    const mine = rows.filter((r) => r.api_key_hint.endsWith(flooder.slice(-4)));
    const counted = mine.reduce((sum, r) => sum + (r.status === 429 ? Number(r.count) : 0), 0);
    const kept = new Set(rows.map((r) => r.id));
    const lost = victimIds.filter((id) => !kept.has(id)).length;
    console.log(
      `flooder: ${admitted} admitted, ${refused} refused in ${seconds.toFixed(1)} s from ${CONNECTIONS} ` +
        `connections; ${mine.length} entries (bound ${bound}), ${counted} refusals counted`,
    );
    console.log(`other organisation: ${victimIds.length} requests answered 200, ${lost} of their entries lost`);
    console.log(
      metrics
        .split('\n')
        .filter((l) => l.startsWith('plinth_request_log_dropped'))
        .join('\n'),
    );
    if (mine.length > bound) failures.push(`the flooder's key has ${mine.length} entries, over ${bound}`);
    if (counted !== refused) failures.push(`${counted} refusals counted, ${refused} answered`);
    if (lost > 0) failures.push(`the other organisation lost ${lost} entries`);
  } finally {
    await database.close();
  }
} finally {
  clearInterval(trim);
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await server.exited;
  await fresh.drop();
}
console.log(
  failures.length === 0
    ? 'campaign request-log-flood: passed'
    : `campaign request-log-flood: FAILED\n- ${failures.join('\n- ')}`,
);
process.exit(failures.length === 0 ? 0 : 1);
