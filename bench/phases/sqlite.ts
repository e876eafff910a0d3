/**
 * The SQLite phases, in one run: the bare ceiling, the floor server for create, then Plinth on an empty database (create with a fresh
 * Idempotency-Key per request, retrieve, create while /metrics is scraped each second), then Plinth on a database
 * holding 1,000,000 accounts (create).
 */

import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { watchCpu } from '../lib/cpu.ts';
import { type Load, loadCreate, loadGet, loadTransfer } from '../lib/load.ts';
import {
  createKey,
  createOne,
  depositInto,
  type Plinth,
  type ProbeFigures,
  probe,
  startPlinth,
} from '../lib/plinth.ts';
import { type Server, start, stop, watchRss } from '../lib/process.ts';
import { seed } from '../seed.ts';

export const SEED_ACCOUNTS = Number(process.env.BENCH_SEED_ACCOUNTS ?? 1_000_000);

export interface SqliteResults {
  bareCreate: Load;
  bareRetrieve: Load;
  /** The floor server for create (bench/servers/sqlite-floor.ts): a recorded create in the same group commit. */
  floorCreate: Load;
  /** Server CPU ms per create: the floor's, and Plinth's in its create load. */
  cpuPerCreate: { floor: number; plinth: number };
  create: Load;
  createProbe: ProbeFigures | null;
  /** Accounts and idempotency records in the database after the create load: each 2xx made one of each. */
  stored: { accounts: number; idempotency: number };
  retrieve: Load;
  /** Transfers of 1 cent between two accounts, each with a fresh Idempotency-Key (issue 12: ≥ 0.7× create). */
  transfer: Load;
  /** Create while GET /metrics is scraped once a second; null while the server has no /metrics. */
  createScraped: Load | null;
  scrapes: number;
  seeded: Load;
  seededProbe: ProbeFigures | null;
  seedSeconds: number;
  rssPeakMiB: number;
}

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

async function bare(dir: string) {
  const server = await start({ args: ['bench/servers/bare-http.ts'], env: {}, logFile: join(dir, 'bare.log') });
  log('bare node:http: create');
  const bareCreate = await loadCreate(server.port, null);
  log('bare node:http: retrieve');
  const bareRetrieve = await loadGet(server.port, '/v1/fintech/accounts/acct_01KAQX7ZJ0Q9W3H6T8V2N4M5PB', null);
  await stop(server);
  const floor = await start({
    args: ['bench/servers/sqlite-floor.ts'],
    env: { PLINTH_TEST_BACKEND: 'sqlite' },
    logFile: join(dir, 'sqlite-floor.log'),
  });
  log('floor: a recorded create in the group commit');
  const cpu = await watchCpu(floor.child.pid!);
  const floorCreate = await loadCreate(floor.port, null);
  const floorCpu = (await cpu(floorCreate.ok)).server;
  await stop(floor);
  // A floor whose replayed create fails (a new constraint its replay does not know) would measure only its errors.
  if (floorCreate.non2xx + floorCreate.errors > 0)
    throw new Error(`the floor server failed ${floorCreate.non2xx + floorCreate.errors} creates: see sqlite-floor.log`);
  return { bareCreate, bareRetrieve, floorCreate, floorCpu };
}

/** A create load with the probe read around it and the peak RSS sampled during it. */
async function measuredCreate(server: Plinth, dir: string, name: string) {
  await probe(server, dir, name);
  const peak = watchRss(server.child.pid!);
  const cpu = await watchCpu(server.child.pid!);
  const load = await loadCreate(server.port, server.authorization);
  const cpuPerCreate = (await cpu(load.ok)).server;
  return { load, probe: await probe(server, dir, name), rss: peak(), cpuPerCreate };
}

async function metricsAvailable(server: Plinth): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${server.port}/metrics`, {
    headers: { authorization: 'Bearer bench-metrics-token' },
  });
  await response.arrayBuffer();
  return response.status === 200;
}

/** The create load again, with a scraper fetching /metrics once a second as Prometheus would. */
async function scrapedCreate(server: Plinth): Promise<{ load: Load; scrapes: number }> {
  let scrapes = 0;
  const timer = setInterval(() => {
    fetch(`http://127.0.0.1:${server.port}/metrics`, { headers: { authorization: 'Bearer bench-metrics-token' } })
      .then((r) => r.arrayBuffer())
      .then(
        () => scrapes++,
        () => undefined,
      );
  }, 1000);
  const load = await loadCreate(server.port, server.authorization);
  clearInterval(timer);
  return { load, scrapes };
}

function countStored(path: string) {
  const db = new DatabaseSync(path, { readOnly: true });
  const count = (table: string) => Number(Object.values(db.prepare(`select count(*) from ${table}`).get()!)[0]);
  const stored = { accounts: count('accounts'), idempotency: count('idempotency_keys') };
  db.close();
  return stored;
}

async function emptyDatabase(dir: string) {
  const path = join(dir, 'empty.db');
  const server = await startPlinth({ databaseUrl: `sqlite:${path}`, dir, name: 'sqlite-empty', probe: true });
  log('Plinth SQLite: create (empty database)');
  const create = await measuredCreate(server, dir, 'sqlite-empty');
  const id = await createOne(server);
  log('Plinth SQLite: retrieve');
  const peak = watchRss(server.child.pid!);
  const retrieve = await loadGet(server.port, `/v1/fintech/accounts/${id}`, server.authorization);
  const retrieveRss = peak();
  log('Plinth SQLite: transfers');
  const [from, to] = [id, await createOne(server)];
  await depositInto(server, from, 1_000_000_000_000);
  const transfer = await loadTransfer(server.port, server.authorization, from, to);
  let scraped: { load: Load; scrapes: number } | null = null;
  if (await metricsAvailable(server)) {
    log('Plinth SQLite: create while /metrics is scraped each second');
    scraped = await scrapedCreate(server);
  } else log('Plinth SQLite: no /metrics yet; its cost is pending');
  await stop(server);
  return { create, retrieve, transfer, scraped, stored: countStored(path), rss: Math.max(create.rss, retrieveRss) };
}

/** Migrates a database through the CLI, then seeds it; the seeding is timed on its own. */
function seededDatabase(dir: string): { path: string; seconds: number } {
  const path = join(dir, 'seeded.db');
  createKey({ DATABASE_URL: `sqlite:${path}` });
  log(`seeding ${SEED_ACCOUNTS} accounts`);
  const { seconds } = seed(path, SEED_ACCOUNTS);
  log(`seeded in ${seconds.toFixed(1)} s`);
  return { path, seconds };
}

export async function sqlitePhases(dir: string): Promise<SqliteResults> {
  const seeded = seededDatabase(dir); // first, so that its CPU burst disturbs no measurement
  const { bareCreate, bareRetrieve, floorCreate, floorCpu } = await bare(dir);
  const empty = await emptyDatabase(dir);
  const big: Server & Plinth = await startPlinth({
    databaseUrl: `sqlite:${seeded.path}`,
    dir,
    name: 'sqlite-seeded',
    probe: true,
  });
  log(`Plinth SQLite: create (${SEED_ACCOUNTS} existing accounts)`);
  const bigCreate = await measuredCreate(big, dir, 'sqlite-seeded');
  await stop(big);
  return {
    bareCreate,
    bareRetrieve,
    floorCreate,
    cpuPerCreate: { floor: floorCpu, plinth: empty.create.cpuPerCreate },
    create: empty.create.load,
    createProbe: empty.create.probe,
    stored: empty.stored,
    retrieve: empty.retrieve,
    transfer: empty.transfer,
    createScraped: empty.scraped?.load ?? null,
    scrapes: empty.scraped?.scrapes ?? 0,
    seeded: bigCreate.load,
    seededProbe: bigCreate.probe,
    seedSeconds: seeded.seconds,
    rssPeakMiB: Math.max(empty.rss, bigCreate.rss),
  };
}
