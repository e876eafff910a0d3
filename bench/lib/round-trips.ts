/**
 * Round trips per request kind on PostgreSQL (issue 22: ≤ 3 per create, ≤ 4 per transfer), measured two ways on one
 * Plinth server whose database connection runs through a delaying proxy (bench/lib/delay-proxy.ts):
 *
 * - felt: each kind's quickest of a few requests with no delay, then with a one-way delay of DELAY_MS; the difference
 *   divided by the round trip's 2·DELAY_MS is how many times the request waited for PostgreSQL, whatever it did and
 *   wherever in the code (works on any version of Plinth);
 * - counted: what the server's own histogram (`plinth_db_round_trips`) gained from the request's write alone. A
 *   request is scraped right before and right after; the reading counts only when the histogram gained exactly one
 *   write (the request's own, committed before its answer: with the delay, the sequencer's pass it woke commits
 *   later, and a reading that a poll's pass fell into is dropped).
 *
 * One request at a time; a retrieve just before each keeps the key's cached lookup fresh (as under load), and a pause
 * after each lets its sequencer pass end before the next.
 */
import { randomUUID } from 'node:crypto';
import { delayProxy } from './delay-proxy.ts';
import { histogram, scrape } from './metrics.ts';
import { createOne, depositInto, type Plinth, startPlinth } from './plinth.ts';
import { stop } from './process.ts';

const DELAY_MS = 50;
const REPEATS = 5;
const PASS_PAUSE_MS = 900;

export interface Trips {
  kind: string;
  /** Round trips from the latency (see above). */
  felt: number;
  directMs: number;
  delayedMs: number;
  /** The server's own count for the request's write, one per clean reading; null when it has no such metric. */
  counted: number[] | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed(send: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await send();
  const text = await response.text();
  if (response.status !== 200) throw new Error(`round-trip probe: answered ${response.status}: ${text}`);
  return performance.now() - started;
}

export async function probeRoundTrips(options: { databaseUrl: string; dir: string }): Promise<Trips[]> {
  const target = new URL(options.databaseUrl);
  const proxy = await delayProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const through = new URL(options.databaseUrl);
  through.hostname = '127.0.0.1';
  through.port = String(proxy.port);
  let server: Plinth | undefined;
  try {
    server = await startPlinth({
      databaseUrl: through.toString(),
      cliDatabaseUrl: options.databaseUrl,
      dir: options.dir,
      name: 'pg-round-trips',
      // The request log records each request in a write of its own, a batch that lands beside the request's write
      // and spoils the reading: the round trips counted are the request's write's alone.
      env: { REQUEST_LOG: 'off' },
    });
    const s = server;
    const base = `http://127.0.0.1:${s.port}`;
    const [from, to] = [await createOne(s), await createOne(s)];
    await depositInto(s, from, 1_000_000_000);
    const post = (path: string, body: object, withKey: boolean) => () =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          authorization: s.authorization,
          'content-type': 'application/json',
          ...(withKey ? { 'idempotency-key': randomUUID() } : {}),
        },
        body: JSON.stringify(body),
      });
    const account = { type: 'business', country: 'US' };
    const transfer = { from_account_id: from, to_account_id: to, amount: 1, currency: 'USD' };
    const kinds: [string, () => Promise<Response>][] = [
      ['create, Idempotency-Key', post('/v1/fintech/accounts', account, true)],
      ['create, no key', post('/v1/fintech/accounts', account, false)],
      ['transfer, Idempotency-Key', post('/v1/fintech/transfers', transfer, true)],
      ['transfer, no key', post('/v1/fintech/transfers', transfer, false)],
    ];
    const refreshKey = () =>
      timed(() => fetch(`${base}/v1/fintech/accounts/${from}`, { headers: { authorization: s.authorization } }));
    const trips = () => scrape(s.port).then((text) => histogram(text, 'plinth_db_round_trips'));

    const results: Trips[] = [];
    for (const [kind, send] of kinds) {
      proxy.setDelay(0);
      await sleep(PASS_PAUSE_MS);
      let directMs = Number.POSITIVE_INFINITY;
      for (let i = 0; i < REPEATS; i++) {
        await refreshKey();
        directMs = Math.min(directMs, await timed(send));
      }
      await sleep(PASS_PAUSE_MS);
      proxy.setDelay(DELAY_MS);
      let delayedMs = Number.POSITIVE_INFINITY;
      let counted: number[] | null = [];
      for (let i = 0; i < REPEATS; i++) {
        await sleep(PASS_PAUSE_MS);
        await refreshKey();
        const before = await trips();
        delayedMs = Math.min(delayedMs, await timed(send));
        const after = await trips();
        if (before === null || after === null) counted = null;
        else if (after.count - before.count === 1) counted?.push(after.sum - before.sum);
      }
      const felt = Math.round((delayedMs - directMs) / (2 * DELAY_MS));
      results.push({ kind, felt, directMs, delayedMs, counted });
    }
    proxy.setDelay(0);
    return results;
  } finally {
    if (server !== undefined) await stop(server);
    await proxy.close();
  }
}
