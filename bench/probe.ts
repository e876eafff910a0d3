/**
 * A preload (`node --import ./bench/probe.ts src/server.ts`) that measures, inside the server, what decides whether
 * the SQLite writer belongs on a worker thread: how busy the event loop is (utilisation, delay), how much of the
 * main thread's time goes to node:sqlite calls, and COMMIT (with synchronous=FULL, the WAL fsync) per commit.
 * It wraps node:sqlite's methods, so the server is measured as it runs, unchanged. On SIGUSR2 it writes the figures
 * since the previous SIGUSR2 to BENCH_PROBE_OUT (JSON) and starts counting afresh: the bench signals before and
 * after each load. With BENCH_PROBE_CPU_PROFILE=<file> it also records a CPU profile between the first and the
 * second SIGUSR2 (the load alone, not start-up) and writes it there.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { DatabaseSync, StatementSync } from 'node:sqlite';

const out = process.env.BENCH_PROBE_OUT;
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();

const zero = () => ({ calls: 0, ms: 0 });
let since = { at: performance.now(), elu: performance.eventLoopUtilization(), cpu: process.cpuUsage() };
let sqlite = { statements: zero(), commits: zero(), savepoints: 0, commitTimes: [] as number[] };

function timed<F extends (...args: never[]) => unknown>(
  original: F,
  count: (ms: number, self: unknown, args: Parameters<F>) => void,
) {
  return function (this: unknown, ...args: Parameters<F>) {
    const started = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      count(performance.now() - started, this, args);
    }
  };
}

// An experiment only (bench/writer-thread.ts), never a configuration: BENCH_PROBE_SYNCHRONOUS=NORMAL makes the
// server's `PRAGMA synchronous = FULL` NORMAL, so that COMMIT does no fsync: the upper bound of what taking the
// fsync off the main thread could give.
// BENCH_PROBE_AUTOCHECKPOINT=0 likewise stops SQLite checkpointing inside COMMIT (the WAL grows for the run): the
// upper bound of what moving checkpoints to another thread could give.
const synchronous = process.env.BENCH_PROBE_SYNCHRONOUS;
const autocheckpoint = process.env.BENCH_PROBE_AUTOCHECKPOINT;
const exec = DatabaseSync.prototype.exec;
const rewritten: typeof exec = function (this: DatabaseSync, sql: string) {
  if (!/^PRAGMA synchronous = FULL$/i.test(sql)) return exec.call(this, sql);
  if (autocheckpoint !== undefined) exec.call(this, `PRAGMA wal_autocheckpoint = ${Number(autocheckpoint)}`);
  return exec.call(this, synchronous ? `PRAGMA synchronous = ${synchronous}` : sql);
};
DatabaseSync.prototype.exec = timed(rewritten, (ms, _self, [sql]) => {
  if (sql === 'COMMIT') {
    sqlite.commits.calls++;
    sqlite.commits.ms += ms;
    sqlite.commitTimes.push(ms);
  } else {
    if (sql.startsWith('SAVEPOINT')) sqlite.savepoints++;
    sqlite.statements.calls++;
    sqlite.statements.ms += ms;
  }
});
for (const method of ['run', 'all', 'get', 'iterate'] as const) {
  const original = StatementSync.prototype[method] as (...args: never[]) => unknown;
  (StatementSync.prototype as unknown as Record<string, unknown>)[method] = timed(original, (ms) => {
    sqlite.statements.calls++;
    sqlite.statements.ms += ms;
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

const profileFile = process.env.BENCH_PROBE_CPU_PROFILE;
const session = profileFile ? new Session() : null;
let profiling = false;
async function toggleProfile(): Promise<void> {
  if (session === null || profileFile === undefined) return;
  if (!profiling) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    profiling = true;
    return;
  }
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(profileFile, JSON.stringify(profile));
  session.disconnect();
}

process.on('SIGUSR2', () => {
  void toggleProfile();
  const now = performance.now();
  const wallMs = now - since.at;
  const cpu = process.cpuUsage(since.cpu);
  const commitTimes = sqlite.commitTimes.sort((a, b) => a - b);
  const figures = {
    wall_ms: wallMs,
    event_loop_utilisation: performance.eventLoopUtilization(since.elu).utilization,
    cpu_share: (cpu.user + cpu.system) / 1000 / wallMs,
    loop_delay_ms: {
      p50: delay.percentile(50) / 1e6,
      p99: delay.percentile(99) / 1e6,
      max: delay.max / 1e6,
    },
    sqlite_statements: { ...sqlite.statements, share: sqlite.statements.ms / wallMs },
    commits: {
      ...sqlite.commits,
      per_second: (sqlite.commits.calls * 1000) / wallMs,
      mean_ms: sqlite.commits.ms / Math.max(1, sqlite.commits.calls),
      p50_ms: percentile(commitTimes, 0.5),
      p99_ms: percentile(commitTimes, 0.99),
      share: sqlite.commits.ms / wallMs,
      writes_per_commit: sqlite.savepoints / Math.max(1, sqlite.commits.calls),
    },
  };
  const memory = process.memoryUsage();
  const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
  const memoryMiB = { rss: mib(memory.rss), heap_total: mib(memory.heapTotal), heap_used: mib(memory.heapUsed) };
  if (out)
    writeFileSync(out, JSON.stringify({ ...figures, memory_mib: { ...memoryMiB, external: mib(memory.external) } }));
  delay.reset();
  since = { at: now, elu: performance.eventLoopUtilization(), cpu: process.cpuUsage() };
  sqlite = { statements: zero(), commits: zero(), savepoints: 0, commitTimes: [] };
});
