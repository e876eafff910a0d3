/**
 * `npm run bench`: account creation throughput and latency of Plinth (embedded SQLite, synchronous=FULL) against
 * a bare node:http + node:sqlite server that commits each request the same way, measured in one run on this
 * machine, printed as ratios (timings alone mean little on a shared machine). Writes bench/results.md.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROOT = new URL('..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'plinth-bench-'));

function start(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (d: Buffer) => {
      seen += d.toString();
      const m = ready.exec(seen);
      if (m) {
        child.stdout!.off('data', onData);
        child.stdout!.resume(); // keep draining the log so the server never blocks on a full pipe
        resolve({ child, port: Number(m[1]) });
      }
    };
    child.stdout!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Math.round(Number(line.replace(/\D+/g, '')) / 1024);
}

async function load(port: number, headers: Record<string, string>) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/v1/fintech/accounts`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ type: 'business', country: 'US' }),
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const stop = (child: ChildProcess) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

try {
  const baseline = await start(['bench/baseline.ts', join(dir, 'baseline.db')], {}, /listening (\d+)/);
  const base = await load(baseline.port, {});
  await stop(baseline.child);

  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'plinth.db')}`,
    PORT: '0',
    RATE_LIMIT_SANDBOX: '1000000',
    LOG_LEVEL: 'info',
  };
  const key = spawnSync(
    process.execPath,
    ['src/cli/main.ts', 'keys', 'create', '--org', 'bench', '--mode', 'sandbox'],
    { cwd: ROOT, env: { ...process.env, ...env } },
  )
    .stdout.toString()
    .trim();
  const plinth = await start(['src/server.ts'], env, /listening at http:\/\/127\.0\.0\.1:(\d+)/);
  const idle = rssMiB(plinth.child.pid!);
  const ours = await load(plinth.port, { authorization: `Bearer ${key}` });
  const loaded = rssMiB(plinth.child.pid!);
  await stop(plinth.child);

  // Optionally, the deployment that outgrows one machine: PostgreSQL with WEB_CONCURRENCY workers.
  let pgRow = '';
  if (process.env.BENCH_POSTGRES_URL) {
    const { default: pg } = await import('pg');
    const name = `plinth_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: process.env.BENCH_POSTGRES_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(process.env.BENCH_POSTGRES_URL);
    url.pathname = `/${name}`;
    const workers = process.env.BENCH_WORKERS ?? '2';
    const pgEnv = { ...env, DATABASE_URL: url.toString(), WEB_CONCURRENCY: workers };
    const pgKey = spawnSync(
      process.execPath,
      ['src/cli/main.ts', 'keys', 'create', '--org', 'bench', '--mode', 'sandbox'],
      { cwd: ROOT, env: { ...process.env, ...pgEnv } },
    )
      .stdout.toString()
      .trim();
    const server = await start(['src/server.ts'], pgEnv, /listening at http:\/\/127\.0\.0\.1:(\d+)/);
    await new Promise((r) => setTimeout(r, 1000)); // let every worker listen
    const r = await load(server.port, { authorization: `Bearer ${pgKey}` });
    await stop(server.child);
    await admin.query(`drop database ${name} with (force)`);
    await admin.end();
    pgRow = `| Plinth, PostgreSQL (synchronous_commit on), ${workers} workers on this machine | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`;
  }

  const ratio = ours.rps / base.rps;
  const lines = [
    `# Benchmark: durable account creation`,
    '',
    `${new Date().toISOString().slice(0, 16)}Z · ${cpus().length} cores · ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.versions.node} · ${CONNECTIONS} connections · ${SECONDS} s each · \`npm run bench\``,
    '',
    '| server | requests/s | p50 ms | p99 ms | non-2xx | errors |',
    '|---|---|---|---|---|---|',
    `| baseline: node:http + node:sqlite, one synchronous=FULL commit per request | ${base.rps.toFixed(0)} | ${base.p50} | ${base.p99} | ${base.non2xx} | ${base.errors} |`,
    `| Plinth, embedded SQLite (synchronous=FULL), one JSON log line per request | ${ours.rps.toFixed(0)} | ${ours.p50} | ${ours.p99} | ${ours.non2xx} | ${ours.errors} |`,
    ...(pgRow ? [pgRow] : []),
    '',
    `**Throughput ratio Plinth / baseline: ${ratio.toFixed(2)}** (target after group commit: ≥ 0.5; p99 target ≤ 10 ms at 32 connections).`,
    `Plinth resident memory: ${idle} MiB idle, ${loaded} MiB after the run.`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  writeFileSync(new URL('results.md', import.meta.url), `${lines.join('\n')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
