/**
 * The PostgreSQL phases (issue 22), all against one scratch database dropped at the end:
 *
 * 1. the bare durable insert (node:http + node-pg, BEGIN / INSERT / COMMIT per request): the baseline;
 * 2. Plinth creating accounts for one org with a fresh Idempotency-Key each, with 1 and 2 worker processes
 *    (WEB_CONCURRENCY) for each pool size of BENCH_POOL_SIZES: which setting is best on this machine;
 * 3. at the best setting: one org's transfers around a ring of funded accounts, pending transfers and posts against
 *    plain transfers (phases/pending.ts), and creates from 16 orgs in turn;
 * 4. the bare insert again (the machine drifts; the baseline is the mean of both), and the round-trip probe (on a
 *    small database of its own).
 *
 * Every Plinth server is fresh, and its event numbering lag and round-trip histograms (/metrics, every worker) are
 * read after its load: they hold little else (start-up, the funding of the transfer ring).
 */
import { join } from 'node:path';
import { type CpuShare, watchCpu } from '../lib/cpu.ts';
import { type Load, loadCreate, loadCreateAs, loadTransferRing } from '../lib/load.ts';
import { combine, type Histogram, serverHistograms } from '../lib/metrics.ts';
import { createKey, fundedAccounts, type Plinth, startPlinth } from '../lib/plinth.ts';
import { durability, postgresServer, scratchDatabase } from '../lib/postgres.ts';
import { start, stop } from '../lib/process.ts';
import { probeRoundTrips, type Trips } from '../lib/round-trips.ts';
import { type PendingResults, pendingPhase } from './pending.ts';

export const POOL_SIZES = (process.env.BENCH_POOL_SIZES ?? '4,8,16,32')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
export const WORKERS = (process.env.BENCH_WORKERS ?? '1,2')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
/** Orgs of the spread load, each request from the next (issue 22's "16 orgs in turn"). */
export const ORGS = 16;
/** Accounts of the transfer ring: transfers of one org that do not all wait for the same two rows. */
export const RING = Number(process.env.BENCH_TRANSFER_ACCOUNTS ?? 8);

export interface PostgresRun {
  workers: number;
  pool: number;
  load: Load;
  /** `plinth_event_numbering_lag_seconds` gained during the load, every worker; null when the server has none. */
  lag: Histogram | null;
  /** `plinth_db_round_trips` likewise: every write, the sequencer's passes included. */
  trips: Histogram | null;
  /** `plinth_db_statements` likewise: the statements of every write, BEGIN and COMMIT included. */
  statements: Histogram | null;
  /** CPU ms per request of the server (every worker) and of PostgreSQL's backends for it, during the load. */
  cpu: CpuShare;
}

/** The bare insert's load and its CPU per request. */
export interface BareRun {
  load: Load;
  cpu: CpuShare;
}

export interface PostgresResults {
  settings: string;
  /** The bare insert before and after Plinth's loads; the baseline is their mean. */
  bare: BareRun;
  bareAgain: BareRun;
  baseline: number;
  barePool: number;
  /** One org's creates, each worker count × pool size. */
  runs: PostgresRun[];
  best: PostgresRun;
  transfers: PostgresRun;
  /** Pending transfers and posts against plain transfers, at the best setting (issue 24, phases/pending.ts). */
  pending: PendingResults;
  manyOrgs: PostgresRun;
  roundTrips: Trips[];
}

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const BARE_POOL = Number(process.env.BENCH_BARE_POOL_SIZE ?? 32);

async function bareInsert(url: string, dir: string): Promise<BareRun> {
  const server = await start({
    args: ['bench/servers/bare-pg.ts'],
    env: { DATABASE_URL: url, BARE_POOL_SIZE: String(BARE_POOL) },
    logFile: join(dir, 'bare-pg.log'),
  });
  log(`bare node-pg durable insert (pool ${BARE_POOL})`);
  const cpu = await watchCpu(server.child.pid!, url);
  const load = await loadCreate(server.port, null);
  const share = await cpu(load.ok + load.non2xx);
  await stop(server);
  return { load, cpu: share };
}

const HISTOGRAMS = ['plinth_event_numbering_lag_seconds', 'plinth_db_round_trips', 'plinth_db_statements'];
// Long enough for the sequencer to number what came before (it also polls each second) and counts to stop moving.
const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

/**
 * A fresh Plinth, `prepare` (not measured), the load, and what its histograms gained during the load: before it they
 * hold start-up's events (the key the CLI made before the server ran, numbered seconds later) and the preparation's.
 */
async function measured<T>(
  url: string,
  dir: string,
  name: string,
  setting: { workers: number; pool: number },
  prepare: (server: Plinth) => Promise<T>,
  load: (server: Plinth, prepared: T) => Promise<Load>,
): Promise<PostgresRun> {
  const server = await startPlinth({
    databaseUrl: url,
    dir,
    name,
    workers: setting.workers,
    env: { DATABASE_POOL_SIZE: String(setting.pool) },
  });
  try {
    const prepared = await prepare(server);
    await settle();
    const before = await serverHistograms(server.port, setting.workers, HISTOGRAMS);
    const counting = await watchCpu(server.child.pid!, url);
    const measuredLoad = await load(server, prepared);
    const cpu = await counting(measuredLoad.ok + measuredLoad.non2xx);
    await settle();
    const after = await serverHistograms(server.port, setting.workers, HISTOGRAMS);
    const [lag, trips, statements] = after.map((h, i) =>
      h === null || before[i] == null ? null : combine(h, before[i]!, -1),
    );
    const requests = Math.max(1, measuredLoad.ok + measuredLoad.non2xx);
    const per = (h: Histogram | null | undefined) => (h == null ? '?' : (h.sum / requests).toFixed(1));
    log(
      `  ${name}: ${measuredLoad.rps.toFixed(0)} req/s; per request ${per(statements)} statements, ${per(trips)} ` +
        `round trips, CPU µs server ${(cpu.server * 1000).toFixed(0)} / PostgreSQL ` +
        `${cpu.postgres === null ? '?' : (cpu.postgres * 1000).toFixed(0)} (CPU pressure ` +
        `${((measuredLoad.pressure.cpu ?? 0) * 100).toFixed(0)}%)`,
    );
    return {
      ...setting,
      load: measuredLoad,
      lag: lag ?? null,
      trips: trips ?? null,
      statements: statements ?? null,
      cpu,
    };
  } finally {
    await stop(server);
  }
}

export async function postgresPhases(dir: string): Promise<PostgresResults | null> {
  const serverUrl = await postgresServer();
  if (serverUrl === null) {
    log('no PostgreSQL answers (set BENCH_POSTGRES_URL): PostgreSQL phases skipped');
    return null;
  }
  const scratch = await scratchDatabase(serverUrl, `plinth_bench_${process.pid}_${Date.now()}`);
  try {
    const settings = await durability(scratch.url);
    const bare = await bareInsert(scratch.url, dir);
    const runs: PostgresRun[] = [];
    for (const workers of WORKERS) {
      for (const pool of POOL_SIZES) {
        log(`Plinth PostgreSQL: create, one org, ${workers} worker(s), pool ${pool}`);
        const run = await measured(
          scratch.url,
          dir,
          `pg-w${workers}-p${pool}`,
          { workers, pool },
          async () => null,
          (s) => loadCreate(s.port, s.authorization),
        );
        runs.push(run);
      }
    }
    const best = runs.reduce((a, b) => (b.load.rps > a.load.rps ? b : a));
    const setting = { workers: best.workers, pool: best.pool };
    log(`Plinth PostgreSQL: transfers around ${RING} accounts, ${best.workers} worker(s), pool ${best.pool}`);
    const transfers = await measured(
      scratch.url,
      dir,
      'pg-transfers',
      setting,
      (s) => fundedAccounts(s, RING),
      (s, ring) => loadTransferRing(s.port, s.authorization, ring),
    );
    const pending = await pendingPhase({ databaseUrl: scratch.url, dir, ...setting });
    const env = { DATABASE_URL: scratch.url, SECRETS_KEY: Buffer.alloc(32, 9).toString('base64') };
    const keys = Array.from({ length: ORGS }, (_, i) => `Bearer ${createKey(env, `bench-org-${i}`)}`);
    log(`Plinth PostgreSQL: create from ${ORGS} orgs in turn, ${best.workers} worker(s), pool ${best.pool}`);
    const manyOrgs = await measured(
      scratch.url,
      dir,
      'pg-orgs',
      setting,
      async () => null,
      (s) => loadCreateAs(s.port, keys),
    );
    const bareAgain = await bareInsert(scratch.url, dir);
    log('Plinth PostgreSQL: round trips per request kind (delaying proxy)');
    // A database of its own: on the loaded one, /metrics' ledger gauge scans every entry through the proxy's delay
    // (measured: past the scrape's 10 s timeout after a full run's loads).
    const probeDb = await scratchDatabase(serverUrl, `${scratch.name}_trips`);
    const roundTrips = await probeRoundTrips({ databaseUrl: probeDb.url, dir }).finally(() => probeDb.drop());
    const baseline = (bare.load.rps + bareAgain.load.rps) / 2;
    return {
      settings,
      bare,
      bareAgain,
      baseline,
      barePool: BARE_POOL,
      runs,
      best,
      transfers,
      pending,
      manyOrgs,
      roundTrips,
    };
  } finally {
    await scratch.drop();
  }
}
