/**
 * `npm run bench:writer-thread`: does the SQLite writer belong on a worker thread? node:sqlite runs COMMIT (with
 * synchronous=FULL, the WAL fsync) on the main thread, which stalls the event loop for as long as the fsync takes.
 * SQLite also checkpoints the WAL inside a COMMIT now and then (every 1000 pages), fsyncing the database file.
 * This runs the create load of the benchmark on Plinth as it is (FULL), without checkpoints in COMMIT, without
 * the commit fsync (NORMAL), and without either, through bench/probe.ts (experiments, never a configuration),
 * BENCH_ROUNDS times each in turn, and reports throughput, p99 and what the probe saw. Each gap is the most that
 * moving that work off the main thread could win, before the cost of moving it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTIONS, type Load, loadCreate, SECONDS } from './lib/load.ts';
import { type ProbeFigures, probe, startPlinth } from './lib/plinth.ts';
import { stop } from './lib/process.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const pct = (share: number | undefined) => (share === undefined ? '?' : `${(share * 100).toFixed(1)}%`);

const MODES: Record<string, Record<string, string>> = {
  FULL: {},
  'FULL, no checkpoint in COMMIT': { BENCH_PROBE_AUTOCHECKPOINT: '0' },
  NORMAL: { BENCH_PROBE_SYNCHRONOUS: 'NORMAL' },
  'NORMAL, no checkpoint in COMMIT': { BENCH_PROBE_SYNCHRONOUS: 'NORMAL', BENCH_PROBE_AUTOCHECKPOINT: '0' },
};

async function once(dir: string, mode: string, round: number): Promise<Run> {
  const name = `${mode.replace(/\W+/g, '-')}-${round}`;
  const server = await startPlinth({
    databaseUrl: `sqlite:${join(dir, `${name}.db`)}`,
    dir,
    name,
    probe: true,
    env: MODES[mode] ?? {},
  });
  await probe(server, dir, name);
  const load = await loadCreate(server.port, server.authorization);
  const figures = await probe(server, dir, name);
  await stop(server);
  process.stderr.write(`bench: ${name}: ${load.rps.toFixed(0)} req/s\n`);
  return { mode, load, figures };
}

interface Run {
  mode: string;
  load: Load;
  figures: ProbeFigures | null;
}

const line = (r: Run) => {
  const f = r.figures;
  return (
    `| ${r.mode} | ${r.load.rps.toFixed(0)} | ${r.load.p50} | ${r.load.p99} | ${r.load.non2xx + r.load.errors} | ` +
    `${pct(f?.event_loop_utilisation)} | ${pct(f?.cpu_share)} | ${f?.loop_delay_ms.p99.toFixed(1)} | ` +
    `${f?.commits.per_second.toFixed(0)} | ${f?.commits.writes_per_commit.toFixed(1)} | ` +
    `${f?.commits.p50_ms.toFixed(2)} / ${f?.commits.mean_ms.toFixed(2)} / ${f?.commits.p99_ms.toFixed(2)} | ` +
    `${pct(f?.commits.share)} |`
  );
};

const dir = mkdtempSync(join(tmpdir(), 'plinth-writer-'));
try {
  const runs: Run[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const mode of Object.keys(MODES)) runs.push(await once(dir, mode, round));
  }
  const mean = (mode: string) => {
    const of = runs.filter((r) => r.mode === mode);
    return of.reduce((sum, r) => sum + r.load.rps, 0) / of.length;
  };
  const lines = [
    '# Does the SQLite writer belong on a worker thread?',
    '',
    `Written by \`npm run bench:writer-thread\`, ${new Date().toISOString().slice(0, 16)}Z, Node ` +
      `${process.versions.node}, ${CONNECTIONS} connections, ${SECONDS} s per load, each setting in turn, each round.`,
    '',
    '| synchronous | req/s | p50 ms | p99 ms | errors | event loop utilisation | server CPU | loop delay p99 ms ' +
      '| commits/s | writes per commit | COMMIT p50 / mean / p99 ms | COMMIT share of wall time |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map(line),
    '',
    ...Object.keys(MODES)
      .slice(1)
      .map((mode) => `Mean throughput, ${mode} / FULL: **${(mean(mode) / mean('FULL')).toFixed(2)}×**.`),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  writeFileSync(new URL('WRITER-THREAD.md', import.meta.url), lines.join('\n'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
