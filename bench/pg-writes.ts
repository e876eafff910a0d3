/**
 * `node bench/pg-writes.ts`: what one PostgreSQL write costs (issue 44), per create and per transfer of one org, on a
 * scratch database of the local PostgreSQL (BENCH_POSTGRES_URL: another), one Plinth server (1 worker, pool
 * BENCH_POOL_SIZE 8):
 *
 * - one request at a time (ONE_BY_ONE of each, a pause after each so that the sequencer's pass it woke ends): the
 *   statements it sent (all of them, counted at the driver by bench/lib/pg-statements.ts) and the round trips of its
 *   write (`plinth_db_round_trips`);
 * - a short saturating load of each (BENCH_SECONDS, 32 connections) after a warm-up: statements and round trips per
 *   request (the sequencer's passes shared among the requests), and CPU µs per request of the server and of the
 *   PostgreSQL backends serving it (bench/lib/cpu.ts).
 *
 * PG_WRITES_PROFILE=<dir> writes a CPU profile of the server for each load (`<kind>.cpuprofile`), PG_WRITES_KINDS
 * (create,transfer) selects the kinds. PG_WRITES_LIST=1 prints every statement text with its count per request.
 * BENCH_PLINTH_ROOT runs another checkout (its server, and its copy of bench/lib/pg-statements.ts as the preload).
 * Prints; writes nothing else.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchCpu } from './lib/cpu.ts';
import { type Load, loadCreate, loadTransferRing } from './lib/load.ts';
import { histogram, scrape } from './lib/metrics.ts';
import { fundedAccounts, PLINTH_ROOT, type Plinth, startPlinth } from './lib/plinth.ts';
import { postgresServer, scratchDatabase } from './lib/postgres.ts';
import { stop } from './lib/process.ts';

const ONE_BY_ONE = Number(process.env.PG_WRITES_ONE_BY_ONE ?? 5);
const WARMUP_SECONDS = Number(process.env.PG_WRITES_WARMUP ?? 3);
const POOL = process.env.BENCH_POOL_SIZE ?? '8';
const RING = 8;
const PROFILE_DIR = process.env.PG_WRITES_PROFILE;
const KINDS = (process.env.PG_WRITES_KINDS ?? 'create,transfer').split(',');

interface Counted {
  total: number;
  socketWrites: number;
  statements: { count: number; text: string }[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let signals = 0;
async function counted(server: Plinth, file: string): Promise<Counted> {
  rmSync(file, { force: true });
  signals++;
  server.child.kill('SIGUSR2');
  for (let i = 0; i < 200; i++) {
    await sleep(10);
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Counted;
    } catch {
      // not written yet, or being written
    }
  }
  throw new Error('pg-writes: the statement count did not come');
}

/** The preload's profile from signal `n` to the next, renamed after its load. */
async function profileOf(n: number, kind: string): Promise<void> {
  const from = join(PROFILE_DIR!, `${n}.cpuprofile`);
  for (let i = 0; i < 500 && !existsSync(from); i++) await sleep(10);
  renameSync(from, join(PROFILE_DIR!, `${kind}.cpuprofile`));
  process.stdout.write(`  profile: ${join(PROFILE_DIR!, `${kind}.cpuprofile`)}\n`);
}

const tripsOf = async (server: Plinth) => histogram(await scrape(server.port), 'plinth_db_round_trips');

function list(what: Counted, per: number) {
  if (process.env.PG_WRITES_LIST !== '1') return;
  for (const s of what.statements) process.stdout.write(`    ${(s.count / per).toFixed(2).padStart(7)}  ${s.text}\n`);
}

async function main() {
  const serverUrl = await postgresServer();
  if (serverUrl === null) throw new Error('no PostgreSQL answers (BENCH_POSTGRES_URL)');
  const dir = mkdtempSync(join(tmpdir(), 'plinth-pg-writes-'));
  const scratch = await scratchDatabase(serverUrl, `plinth_pgw_${process.pid}_${Date.now()}`);
  const out = join(dir, 'statements.json');
  let server: Plinth | undefined;
  try {
    server = await startPlinth({
      databaseUrl: scratch.url,
      dir,
      name: 'pg-writes',
      env: {
        DATABASE_POOL_SIZE: POOL,
        BENCH_PG_STATEMENTS_OUT: out,
        ...(PROFILE_DIR === undefined ? {} : { BENCH_PG_PROFILE_DIR: PROFILE_DIR }),
      },
      nodeFlags: [
        '--import',
        join(PLINTH_ROOT, 'bench/lib/pg-statements.ts'),
        ...(process.env.PG_WRITES_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      ],
    });
    const s = server;
    const ring = await fundedAccounts(s, RING);
    // One request with a fresh Idempotency-Key, as the loads send them.
    const post = async (path: string, body: object) => {
      const response = await fetch(`http://127.0.0.1:${s.port}${path}`, {
        method: 'POST',
        headers: {
          authorization: s.authorization,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body: JSON.stringify(body),
      });
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    };
    const kinds: [string, (limit?: { seconds: number }) => Promise<Load>, () => Promise<unknown>][] = [
      [
        'create',
        () => loadCreate(s.port, s.authorization),
        () => post('/v1/fintech/accounts', { type: 'business', country: 'US' }),
      ],
      [
        'transfer',
        () => loadTransferRing(s.port, s.authorization, ring),
        () =>
          post('/v1/fintech/transfers', {
            from_account_id: ring[0],
            to_account_id: ring[1],
            amount: 1,
            currency: 'USD',
          }),
      ],
    ];
    const chosen = kinds.filter(([kind]) => KINDS.includes(kind));
    for (const [kind, , one] of chosen) {
      // One at a time: the request's own statements, and its sequencer pass's after the pause.
      await one();
      await sleep(1500);
      await counted(s, out);
      const before = await tripsOf(s);
      let n = 0;
      for (let i = 0; i < ONE_BY_ONE; i++) {
        await one();
        n++;
        await sleep(1200);
      }
      const c = await counted(s, out);
      const after = await tripsOf(s);
      const writes = after && before ? after.count - before.count : Number.NaN;
      const trips = after && before ? after.sum - before.sum : Number.NaN;
      process.stdout.write(
        `${kind}, one at a time (${n}): ${(c.total / n).toFixed(2)} statements per request (scrapes of /metrics ` +
          `included: none on PostgreSQL), ${(writes / n).toFixed(2)} writes and ${(trips / n).toFixed(2)} round ` +
          'trips per request (its sequencer pass included)\n',
      );
      list(c, n);
    }
    for (const [kind, load] of chosen) {
      await load({ seconds: WARMUP_SECONDS });
      await sleep(1500);
      await counted(s, out);
      const profiled = signals;
      const before = await tripsOf(s);
      const cpu = await watchCpu(s.child.pid!, scratch.url);
      const l = await load();
      const share = await cpu(l.ok + l.non2xx);
      await sleep(1500);
      const c = await counted(s, out);
      const after = await tripsOf(s);
      const n = l.ok + l.non2xx;
      const writes = after && before ? after.count - before.count : Number.NaN;
      const trips = after && before ? after.sum - before.sum : Number.NaN;
      process.stdout.write(
        `${kind}, load: ${l.rps.toFixed(0)} req/s (p50 ${l.p50} / p99 ${l.p99} ms, ${l.non2xx} non-2xx, ` +
          `${l.errors} errors, CPU pressure ${((l.pressure.cpu ?? 0) * 100).toFixed(0)}%); per request: ` +
          `${(c.total / n).toFixed(2)} statements, ${(c.socketWrites / n).toFixed(2)} socket writes, ` +
          `${(writes / n).toFixed(2)} writes, ${(trips / n).toFixed(2)} round trips; ` +
          `CPU µs server ${(share.server * 1000).toFixed(0)} / PostgreSQL ` +
          `${share.postgres === null ? '?' : (share.postgres * 1000).toFixed(0)}\n`,
      );
      list(c, n);
      if (PROFILE_DIR !== undefined) await profileOf(profiled, kind);
    }
  } finally {
    if (server !== undefined) await stop(server);
    await scratch.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
