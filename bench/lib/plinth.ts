/** Plinth under test: its key made through the CLI, the server started as `npm start` would, on a given database. */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { METRICS_TOKEN } from './metrics.ts';
import { peakRssMiB, ROOT, type Server, serverPid, start } from './process.ts';

/**
 * The Plinth checkout to run: this one, or BENCH_PLINTH_ROOT (another worktree with its own `npm ci`, e.g. an older
 * commit, for a before/after measured by this benchmark). The loads, baselines and report stay this checkout's.
 */
export const PLINTH_ROOT = process.env.BENCH_PLINTH_ROOT ?? ROOT;

export interface Plinth extends Server {
  authorization: string;
}

export interface PlinthOptions {
  databaseUrl: string;
  /** Directory for the log file and the probe's figures. */
  dir: string;
  name: string;
  env?: Record<string, string>;
  workers?: number;
  /** Preload bench/probe.ts (event loop and SQLite timings, read with `probe()`). */
  probe?: boolean;
  nodeFlags?: string[];
  /**
   * The same database by another address, for the CLI that makes the key: the round-trip probe's server reaches its
   * database through a proxy in the bench's own process, which a synchronous CLI run would block.
   */
  cliDatabaseUrl?: string;
  /** A command to run the server under (see `start`). */
  wrap?: string[];
}

/** The environment of every Plinth run: info logging (one line per request), no rate limit in the way. */
function plinthEnv(options: PlinthOptions): Record<string, string> {
  return {
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: 'info',
    RATE_LIMIT_SANDBOX: '1000000',
    WEB_CONCURRENCY: String(options.workers ?? 1),
    METRICS_TOKEN,
    // PostgreSQL refuses to start without a key to seal secrets with (SQLite generates its own).
    ...(options.databaseUrl.startsWith('postgres') ? { SECRETS_KEY: Buffer.alloc(32, 9).toString('base64') } : {}),
    ...options.env,
  };
}

/** A sandbox key of org `bench` (or another, or a live one), made by the CLI (which also migrates the database). */
export function createKey(env: Record<string, string>, org = 'bench', mode: 'sandbox' | 'live' = 'sandbox'): string {
  const made = spawnSync(process.execPath, ['src/cli/main.ts', 'keys', 'create', '--org', org, '--mode', mode], {
    cwd: PLINTH_ROOT,
    env: { ...process.env, ...env },
  });
  if (made.status !== 0) throw new Error(`keys create failed: ${made.stderr.toString()}`);
  return made.stdout.toString().trim();
}

/**
 * The server's command as `npm start` runs it (package.json): the environment it sets (`NAME=value` before `exec`),
 * the Node flags before `src/server.ts` and the arguments after it (`--stop-with-parent`), so that the benchmark
 * measures the server as it ships.
 */
export function startCommand(): { env: Record<string, string>; flags: string[]; args: string[] } {
  const scripts = (
    JSON.parse(readFileSync(join(PLINTH_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts;
  const command = scripts.start.match(/((?:\w+=\S+ )*)exec node ((?:--\S+ )*)src\/server\.ts((?: --?\S+)*)$/);
  if (command === null) throw new Error(`cannot read the server's command from "start": ${scripts.start}`);
  const words = (text: string) => text.trim().split(' ').filter(Boolean);
  const env = Object.fromEntries(
    words(command[1]!).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
  );
  return { env, flags: words(command[2]!), args: words(command[3]!) };
}

/**
 * The peak resident memory (VmHWM) of every Plinth server started by `startPlinth` in this process, MiB, by its name
 * (the load it ran): `npm run bench` reports the worst against 200 MB, `node bench/rss.ts` prints them all. The API
 * process alone: its delivery processes (and a cluster's workers) are processes of their own.
 */
export const rssPeaks = new Map<string, number>();
/** The same for the other processes a load runs (the CLI's `bank import`): reported beside, not as the server's. */
export const otherRssPeaks = new Map<string, number>();

/**
 * Reads a process's high-water mark every 250 ms until `child` exits (VmHWM only grows: the last reading is its
 * peak), into `peaks` under `name`.
 */
export function recordPeakRss(child: ChildProcess, pid: number, name: string, peaks = rssPeaks): void {
  const read = () => {
    try {
      peaks.set(name, Math.max(peaks.get(name) ?? 0, peakRssMiB(pid)));
    } catch {
      // it exited between two readings
    }
  };
  read();
  const timer = setInterval(read, 250);
  timer.unref();
  child.once('exit', () => clearInterval(timer));
}

export async function startPlinth(options: PlinthOptions): Promise<Plinth> {
  const env = plinthEnv(options);
  const key = createKey(options.cliDatabaseUrl ? { ...env, DATABASE_URL: options.cliDatabaseUrl } : env);
  const probeOut = join(options.dir, `${options.name}.probe.json`);
  const command = startCommand();
  const flags = [
    ...command.flags,
    ...(options.nodeFlags ?? []),
    ...(options.probe ? ['--import', './bench/probe.ts'] : []),
  ];
  const server = await start({
    args: ['src/server.ts', ...command.args],
    env: { ...command.env, ...env, BENCH_PROBE_OUT: probeOut },
    nodeFlags: flags,
    logFile: join(options.dir, `${options.name}.log`),
    cwd: PLINTH_ROOT,
    readyPath: '/healthz',
    listeners: options.workers ?? 1,
    listenPattern: /Server listening at/,
    ...(options.wrap === undefined ? {} : { wrap: options.wrap }),
  });
  // A server with a preload (bench/probe.ts) is not the server `npm start` runs: its peak is listed apart.
  const preloaded = options.probe || (options.nodeFlags ?? []).length > 0;
  if (preloaded) recordPeakRss(server.child, serverPid(server), `${options.name} (preloaded)`, otherRssPeaks);
  else recordPeakRss(server.child, serverPid(server), options.name);
  return { ...server, authorization: `Bearer ${key}` };
}

/** The probe's figures since its previous reading (see bench/probe.ts); the first call only starts the count. */
export async function probe(server: Server, dir: string, name: string): Promise<ProbeFigures | null> {
  const file = join(dir, `${name}.probe.json`);
  rmSync(file, { force: true });
  server.child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 20));
    try {
      if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as ProbeFigures;
    } catch {
      // read while being written: try again
    }
  }
  return null;
}

export interface ProbeFigures {
  wall_ms: number;
  event_loop_utilisation: number;
  cpu_share: number;
  loop_delay_ms: { p50: number; p99: number; max: number };
  sqlite_statements: { calls: number; ms: number; share: number };
  memory_mib: { rss: number; heap_total: number; heap_used: number; external: number };
  commits: {
    calls: number;
    ms: number;
    per_second: number;
    mean_ms: number;
    p50_ms: number;
    p99_ms: number;
    share: number;
    writes_per_commit: number;
  };
}

/** A sandbox deposit into an account (the transfer load's source of funds). */
export async function depositInto(server: Plinth, accountId: string, amount: number): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${server.port}/v1/sandbox/fintech/accounts/${accountId}/deposits`, {
    method: 'POST',
    headers: { authorization: server.authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ amount }),
  });
  if (response.status !== 200) throw new Error(`deposit answered ${response.status}: ${await response.text()}`);
}

/** One plain transfer between two accounts; answers its id (the reverse profile reverses it bit by bit). */
export async function transferOne(server: Plinth, from: string, to: string, amount: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${server.port}/v1/fintech/transfers`, {
    method: 'POST',
    headers: { authorization: server.authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ from_account_id: from, to_account_id: to, amount, currency: 'USD' }),
  });
  if (response.status !== 200) throw new Error(`transfer answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** Creates one account and answers its id (the retrieve load reads it). */
export async function createOne(server: Plinth): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${server.port}/v1/fintech/accounts`, {
    method: 'POST',
    headers: { authorization: server.authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'business', country: 'US' }),
  });
  if (response.status !== 200) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** `n` accounts, each funded with 10^12 minor units: a ring for the transfer loads (see `loadTransferRing`). */
export async function fundedAccounts(server: Plinth, n: number): Promise<string[]> {
  const accounts: string[] = [];
  for (let i = 0; i < n; i++) accounts.push(await createOne(server));
  for (const id of accounts) await depositInto(server, id, 1_000_000_000_000);
  return accounts;
}
