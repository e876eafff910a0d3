/**
 * The PostgreSQL phases: a bare durable insert server (node-pg, one transaction per insert), then Plinth creating
 * accounts with 1 and 2 worker processes, for each pool size of BENCH_POOL_SIZES, all against one scratch database
 * that is dropped at the end.
 */
import { join } from 'node:path';
import { type Load, loadCreate, loadCreateAs } from '../lib/load.ts';
import { createKey, startPlinth } from '../lib/plinth.ts';
import { durability, postgresServer, scratchDatabase } from '../lib/postgres.ts';
import { start, stop } from '../lib/process.ts';

export const POOL_SIZES = (process.env.BENCH_POOL_SIZES ?? '4,8,16,32')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
export const WORKERS = [1, 2];

export interface PostgresRun {
  workers: number;
  pool: number;
  load: Load;
}

export interface PostgresResults {
  settings: string;
  bare: Load;
  barePool: number;
  runs: PostgresRun[];
  /** The best setting again, each request from one of ORGS orgs in turn (the org's event counter is not shared). */
  manyOrgs: PostgresRun | null;
}

/**
 * Events are numbered per org and mode, gapless and in commit order (CONTRACT §11), so on PostgreSQL each create
 * holds its org's counter row from drawing the number to its COMMIT, and the creates of one org commit one at a time.
 * The main load uses one org's key, as the target does; this one spreads the same load over ORGS orgs.
 */
export const ORGS = 16;

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const BARE_POOL = Number(process.env.BENCH_BARE_POOL_SIZE ?? 32);

export async function postgresPhases(dir: string): Promise<PostgresResults | null> {
  const serverUrl = await postgresServer();
  if (serverUrl === null) {
    log('no PostgreSQL answers (set BENCH_POSTGRES_URL): PostgreSQL phases skipped');
    return null;
  }
  const scratch = await scratchDatabase(serverUrl, `plinth_bench_${process.pid}_${Date.now()}`);
  try {
    const settings = await durability(scratch.url);
    const bareServer = await start({
      args: ['bench/servers/bare-pg.ts'],
      env: { DATABASE_URL: scratch.url, BARE_POOL_SIZE: String(BARE_POOL) },
      logFile: join(dir, 'bare-pg.log'),
    });
    log(`bare node-pg durable insert (pool ${BARE_POOL})`);
    const bare = await loadCreate(bareServer.port, null);
    await stop(bareServer);
    const runs: PostgresRun[] = [];
    for (const workers of WORKERS) {
      for (const pool of POOL_SIZES) {
        const name = `pg-w${workers}-p${pool}`;
        const server = await startPlinth({
          databaseUrl: scratch.url,
          dir,
          name,
          workers,
          env: { DATABASE_POOL_SIZE: String(pool) },
        });
        log(`Plinth PostgreSQL: create, ${workers} worker(s), pool ${pool}`);
        runs.push({ workers, pool, load: await loadCreate(server.port, server.authorization) });
        await stop(server);
      }
    }
    const best = runs.reduce((a, b) => (b.load.rps > a.load.rps ? b : a));
    const env = { DATABASE_URL: scratch.url, SECRETS_KEY: Buffer.alloc(32, 9).toString('base64') };
    const keys = Array.from({ length: ORGS }, (_, i) => `Bearer ${createKey(env, `bench-org-${i}`)}`);
    const server = await startPlinth({
      databaseUrl: scratch.url,
      dir,
      name: 'pg-orgs',
      workers: best.workers,
      env: { DATABASE_POOL_SIZE: String(best.pool) },
    });
    log(`Plinth PostgreSQL: create from ${ORGS} orgs, ${best.workers} worker(s), pool ${best.pool}`);
    const manyOrgs = { workers: best.workers, pool: best.pool, load: await loadCreateAs(server.port, keys) };
    await stop(server);
    return { settings, bare, barePool: BARE_POOL, runs, manyOrgs };
  } finally {
    await scratch.drop();
  }
}
