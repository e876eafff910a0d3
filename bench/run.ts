/**
 * `npm run bench`: the targets of issues 10, 12, 13, 22, 24 and 26, measured in ONE run on this machine (autocannon at
 * BENCH_CONNECTIONS=32, BENCH_SECONDS=10 per load, every server on 127.0.0.1). Timings alone mean little on a shared
 * machine; the ratios between servers measured in the same run are what the targets are about. Prints every target
 * with its ratio and a pass/fail mark, and writes bench/RESULTS.md (BENCH_RESULTS: another file). PostgreSQL:
 * BENCH_POSTGRES_URL, else the local test server if it answers (a scratch database is created and dropped);
 * BENCH_POSTGRES=off skips it, BENCH_SQLITE=off the SQLite, webhook, request-log, pending-transfer, balances, sandbox-clock and bank-import phases.
 * BENCH_INSTRUCTIONS=off skips valgrind's instruction counts (phases/instructions.ts), a few minutes each.
 * BENCH_PENDING_SECONDS (4) is the length of each pending-transfer load (phases/pending.ts). BENCH_PLINTH_ROOT runs
 * the Plinth of another checkout (an older commit, with its own `npm ci`) under the same loads and baselines.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Load } from './lib/load.ts';
import { otherRssPeaks, PLINTH_ROOT, rssPeaks } from './lib/plinth.ts';
import { probeLines } from './lib/probe-report.ts';
import {
  DISTURBED,
  loadLines,
  machine,
  rssNote,
  rssTarget,
  type Target,
  targetLines,
  targets,
  x,
} from './lib/report.ts';
import { issue44Targets } from './lib/report-44.ts';
import { pendingLines, pendingTargets } from './lib/report-pending.ts';
import { postgresLines, postgresTargets } from './lib/report-pg.ts';
import { type BalancesResults, balancesPhase, balancesTargets } from './phases/balances.ts';
import { type BankImportResults, bankImportPhase, bankImportTargets } from './phases/bank-import.ts';
import { type ClockResults, clockPhase, clockTargets } from './phases/clock.ts';
import { type InstructionResults, instructionsPhase } from './phases/instructions.ts';
import { type PendingResults, pendingPhase } from './phases/pending.ts';
import { type PostgresResults, postgresPhases } from './phases/postgres.ts';
import { type RequestLogResults, requestLogPhase } from './phases/request-log.ts';
import { type SlowDiskResults, slowDiskLines, slowDiskPhase, slowDiskTargets } from './phases/slow-disk.ts';
import { SEED_ACCOUNTS, type SqliteResults, sqlitePhases } from './phases/sqlite.ts';
import { type StreamResults, streamsPhase } from './phases/streams.ts';
import {
  type PacedWebhookResults,
  pacedLines,
  type WebhookResults,
  webhookPacedPhase,
  webhookPhase,
} from './phases/webhooks.ts';

/** Issue 34: creates with five open event streams of the same organisation against none. */
function streamLines(r: StreamResults): string[] {
  const rate = (l: { rps: number; p99: number }) => `${l.rps.toFixed(0)} req/s, p99 ${l.p99} ms`;
  return [
    '',
    '## Event streams (SQLite: creates with 5 open streams of the same organisation vs none, ABBA)',
    '',
    '| target | wanted | measured | |',
    '|---|---|---|---|',
    `| creates, 5 streams / none | ≥ 0.95× | ${r.ratio.toFixed(2)}× (${rate(r.five)} vs ${rate(r.none)}) | ` +
      `${r.ratio >= 0.95 ? 'met' : 'missed'} |`,
    `| bytes the streams received | > 0 | ${r.bytesReceived} | |`,
  ];
}

/**
 * Issues 13 and 44 as targets: the paced load (creates at half the most the server answers: every event delivered
 * while it runs, lag p99 ≤ 1 s, nothing left when it stops) and the saturated one (the backlog drains after it).
 */
function webhookTargets(s: SqliteResults, w: WebhookResults | null, paced: PacedWebhookResults | null): Target[] {
  const list: Target[] = [];
  if (paced !== null) {
    const share = paced.events === 0 ? 0 : paced.deliveredDuringLoad / paced.events;
    const p99 = paced.lag?.p99 ?? null;
    const at = `creates paced at ${paced.rate}/s`;
    list.push(
      {
        name: `Webhooks, ${at}: events delivered during the load (issue 44)`,
        target: '≥ 0.95',
        measured: `${share.toFixed(3)} (${paced.deliveredDuringLoad} / ${paced.events})`,
        pass: share >= 0.95,
        loads: [paced.create],
      },
      {
        name: `Webhooks, ${at}: lag from a create's answer to its event's arrival, p99`,
        target: '≤ 1,000 ms',
        measured: p99 === null ? 'n/a' : `${p99.toFixed(0)} ms (p50 ${paced.lag!.p50.toFixed(0)} ms)`,
        pass: p99 !== null && p99 <= 1000,
        loads: [paced.create],
      },
      {
        name: `Webhooks, ${at}: events left to drain when the load ended (answered more than 1 s before its end)`,
        target: 'none',
        measured: `${paced.backlogAtEnd} (${paced.leftAtEnd} not yet arrived in all)`,
        pass: paced.backlogAtEnd === 0,
        loads: [paced.create],
      },
    );
  }
  if (w !== null) {
    const ratio = w.create.rps / s.create.rps;
    list.push(
      {
        name: 'Webhooks, saturated: create with one enabled endpoint vs without (same run; issue 13)',
        target: '≥ 0.80×',
        measured: x(ratio),
        pass: ratio >= 0.8,
        loads: [w.create, s.create],
      },
      {
        name: 'Webhooks, saturated: the backlog drains once the load stops',
        target: 'yes',
        measured:
          w.drainSeconds === null
            ? 'not within 120 s'
            : `${w.drainSeconds.toFixed(1)} s after the load (${w.events - w.deliveredDuringLoad} of ${w.events} ` +
              `events, ${w.drainPerSecond!.toFixed(0)} deliveries/s)`,
        pass: w.drainSeconds !== null,
      },
    );
  }
  return list;
}

function webhookLines(s: SqliteResults, w: WebhookResults, paced: PacedWebhookResults | null): string[] {
  return [
    '## Webhook delivery (SQLite, one enabled endpoint for every event, a local receiver answering 200)',
    '',
    ...targetLines(webhookTargets(s, w, paced)),
    '',
    `Saturated: events delivered per second while the creates ran: ${w.deliveredPerSecond.toFixed(0)} ` +
      `(create ${w.create.rps.toFixed(0)} req/s, p99 ${w.create.p99} ms, ${w.create.non2xx} non-2xx); after it, ` +
      `the backlog drained at ${w.drainPerSecond === null ? 'n/a' : w.drainPerSecond.toFixed(0)} deliveries/s.`,
    '',
    ...(paced === null
      ? []
      : [
          `### At a real load (issue 44): creates paced at half the SQLite create rate above, one endpoint`,
          '',
          ...pacedLines(paced).map((line) => `- ${line}`),
          '',
        ]),
  ];
}

/** Issue 26: the request log costs at most 10% of create and retrieve throughput. */
function requestLogLines(r: RequestLogResults): string[] {
  const row = (name: string, ratio: number, on: Load, off: Load) =>
    `| ${name} with the request log vs \`REQUEST_LOG=off\` (same run, ABBA) | ≥ 0.90× | ${ratio.toFixed(2)}× ` +
    `(${on.rps.toFixed(0)} vs ${off.rps.toFixed(0)} req/s; p99 ${on.p99} vs ${off.p99} ms) | ` +
    `${ratio >= 0.9 ? 'pass' : 'FAIL'}${[on, off].some((l) => (l.pressure.cpu ?? 0) > DISTURBED) ? ' (disturbed)' : ''} |`;
  return [
    '## The request log (SQLite: each load on, off, off, on, each side the mean of its two)',
    '',
    '| target | wanted | measured | |',
    '|---|---|---|---|',
    row('create', r.createRatio, r.on.create, r.off.create),
    row('retrieve', r.retrieveRatio, r.on.retrieve, r.off.retrieve),
    '',
    '`npm run bench:instructions` counts the same cost in CPU instructions, which a busy machine does not disturb.',
    '',
  ];
}

function sqliteLines(s: SqliteResults, w: WebhookResults, paced: PacedWebhookResults | null): string[] {
  const answered = s.create.ok + (s.createScraped?.ok ?? 0);
  return [
    '## SQLite loads',
    '',
    ...loadLines(s, SEED_ACCOUNTS),
    '',
    `Stored after the SQLite create loads: ${s.stored.accounts} accounts and ${s.stored.idempotency} idempotency ` +
      `records for ${answered} 2xx answers with a fresh key (+1 account made without a key for the retrieve load; ` +
      `requests still in flight when a load ends are stored but not counted by autocannon).`,
    `Seeding ${SEED_ACCOUNTS.toLocaleString('en')} accounts (bench/seed.ts): ${s.seedSeconds.toFixed(1)} s.`,
    '',
    '## Inside the server during the SQLite create loads (bench/probe.ts)',
    '',
    ...probeLines([
      ['empty database', s.createProbe],
      [`${SEED_ACCOUNTS.toLocaleString('en')} accounts`, s.seededProbe],
    ]),
    '',
    ...webhookLines(s, w, paced),
  ];
}

/** Which Plinth ran: this checkout's commit, or another's (BENCH_PLINTH_ROOT). */
function plinthCommit(): string {
  try {
    const commit = execFileSync('git', ['-C', PLINTH_ROOT, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' });
    return commit.trim().slice(0, 100);
  } catch {
    return 'unknown commit';
  }
}

function results(
  s: SqliteResults | null,
  pg: PostgresResults | null,
  loadAtStart: number,
  w: WebhookResults | null,
  paced: PacedWebhookResults | null,
  r: RequestLogResults | null,
  p: PendingResults | null,
  b: BalancesResults | null,
  c: ClockResults | null,
  bank: BankImportResults | null,
  instructions: InstructionResults | null,
  slowDisk: SlowDiskResults | null,
): string[] {
  const pending: [string, PendingResults | null][] = [
    ['SQLite', p],
    ['PostgreSQL', pg?.pending ?? null],
  ];
  return [
    '# Benchmark results (issues 10, 12, 13, 22, 24, 26 and 44)',
    '',
    `Written by \`npm run bench\`. ${machine(loadAtStart)}. Plinth: ${plinthCommit()}.`,
    'Server logs: one JSON line per request at info level, to a file. SQLite with WAL, each commit synced before its answer.',
    '',
    '## Targets',
    '',
    ...targetLines([
      ...targets(s, pg),
      ...(s === null ? [] : webhookTargets(s, w, null)),
      ...postgresTargets(s, pg),
      ...pendingTargets(pending),
      ...balancesTargets(b),
      ...clockTargets(c),
      ...bankImportTargets(bank),
    ]),
    '',
    '## Issue 44: speed that holds up (each against its baseline in this run; the slow disk: every load in its section below)',
    '',
    ...targetLines([
      ...issue44Targets(s, pg, instructions),
      ...(s === null ? [] : webhookTargets(s, null, paced)),
      ...slowDiskTargets(slowDisk),
      ...rssTarget(rssPeaks),
    ]),
    '',
    ...rssNote(rssPeaks, otherRssPeaks),
    `(disturbed): a load behind that figure ran while some task on the machine waited for a CPU more than ` +
      `${DISTURBED * 100}% of the time; re-run on a quiet machine before trusting the mark.`,
    "CPU / I/O pressure, in the tables below: the share of the load's time during which some task on the machine " +
      'waited for a CPU, or for I/O (Linux PSI). This machine is shared: a load measured under high pressure was ' +
      'disturbed by other work.',
    '',
    ...(s !== null && w !== null ? sqliteLines(s, w, paced) : ['SQLite: not run (BENCH_SQLITE=off).', '']),
    ...(r !== null ? requestLogLines(r) : []),
    ...pendingLines(pending),
    '## PostgreSQL loads',
    '',
    ...(pg ? [`PostgreSQL: ${pg.settings}.`, '', ...postgresLines(pg)] : ['No server answered; skipped.']),
    '',
    'See bench/FINDINGS.md for what the profile showed and what these figures mean.',
    '',
  ];
}

const loadAtStart = loadavg()[0]!;
const dir = mkdtempSync(join(tmpdir(), 'plinth-bench-'));
try {
  const runSqlite = process.env.BENCH_SQLITE !== 'off';
  const sqlite = runSqlite ? await sqlitePhases(dir) : null;
  // Half the most the server answered (its create load above), paced: deliveries at a real load (issue 44).
  const paced = sqlite === null ? null : await webhookPacedPhase(dir, Math.round(sqlite.create.rps / 2));
  const webhooks = runSqlite ? await webhookPhase(dir) : null;
  const requestLog = runSqlite ? await requestLogPhase(dir) : null;
  const pending = runSqlite ? await pendingPhase({ dir }) : null;
  const balances = runSqlite ? await balancesPhase(dir) : null;
  const clock = runSqlite ? await clockPhase(dir) : null;
  const bankImport = runSqlite ? await bankImportPhase(dir) : null;
  const pg = process.env.BENCH_POSTGRES === 'off' ? null : await postgresPhases(dir);
  const streams = runSqlite ? await streamsPhase(dir) : null;
  const slowDisk = runSqlite ? await slowDiskPhase(dir) : null;
  // Last, alone on the machine: valgrind's counts (issue 44), a few minutes each.
  const instructions = await instructionsPhase();
  const lines = results(
    sqlite,
    pg,
    loadAtStart,
    webhooks,
    paced,
    requestLog,
    pending,
    balances,
    clock,
    bankImport,
    instructions,
    slowDisk,
  );
  const text = [
    ...lines,
    ...(streams === null ? [] : streamLines(streams)),
    ...(slowDisk === null ? [] : slowDiskLines(slowDisk)),
  ].join('\n');
  process.stdout.write(`${text}\n`);
  writeFileSync(process.env.BENCH_RESULTS ?? new URL('RESULTS.md', import.meta.url), text);
} finally {
  if (process.env.BENCH_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  else process.stderr.write(`bench: kept ${dir}\n`);
}
