/**
 * `npm run test:crash`: crash safety, proven (issue 10). For each backend (SQLite always; PostgreSQL when
 * TEST_POSTGRES_URL names a database to create a fresh one from), on a database of the campaign's own:
 *
 *   start the real server (`node src/server.ts`, in a process group of its own, on 127.0.0.1; on PostgreSQL two of
 *   them on the one database), then per cycle: concurrent account creates, each with its own Idempotency-Key, spread
 *   over the servers, while their events are numbered (PostgreSQL: by the sequencer, whose passes run in the servers
 *   being killed) → SIGKILL at a random moment (the server process on odd cycles, its whole process group on even
 *   ones; with two servers, the first while the second keeps serving, the second while the first does, then both)
 *   → restart at once on the same database → every acknowledged account reads back as acknowledged; every unanswered
 *   request, retried with its key (on any server), yields its account (200), and a second retry replays it byte for
 *   byte; `GET /v1/events` lists, once the sequencer caught up, one creation event per answered account and no other,
 *   numbered 1..n with no gap or duplicate, each number unchanged since the last cycle; the database holds exactly one
 *   account, one stored response and one numbered event per key and nothing else; SQLite's `PRAGMA integrity_check`
 *   is ok (on PostgreSQL, amcheck's `bt_index_check` of every index, when the extension is installed). Meanwhile, in
 *   an org of their own, lanes reverse parts of the cycle's transfers with keys, racing on them, retried after the
 *   kill: every reversal answered 200 exists exactly once, amount_reversed is their sum, every answer stored is its
 *   key's alone, `ledger verify` exits 0 (test/crash/reversals.ts). And in a third org, lanes advance the sandbox clock
 *   over the cycle's ACH payments and expiring holds, racing each other, killed mid-run: the background clock pass
 *   finishes a cut advance (odd cycles, with no request), retries and a last advance finish the rest, and every
 *   payment reached its status exactly once (one event per change), each hold expired once, nothing is left due, the
 *   balance adds up (test/crash/clock.ts). And in a live org, each cycle kills `bank import` once some of a
 *   statement's lines are stored and `bank ach-export` once its file is on disk, then runs each again: only final
 *   NACHA files, each recorded, no payment in two, every line applied once, the balances add up (test/crash/bank.ts).
 *
 * Settings: CRASH_CYCLES (default 50 per backend; `npm test` runs 3), CRASH_BACKENDS (default `sqlite,postgres`),
 * CRASH_CONCURRENCY (default 32), CRASH_PROCESSES (server processes on PostgreSQL, 1 or 2; default 2),
 * CRASH_TIMEOUT_S (the whole run fails past it; default 60 s + 20 s a cycle, per backend). Exit code 1 when any
 * invariant failed, with the first failures printed.
 */
import { type Figures, runCampaign } from './campaign.ts';
import type { Backend } from './store.ts';

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`test:crash: ${name} must be a whole number ≥ 1, not ${raw}\n`);
    process.exit(2);
  }
  return value;
}

const cycles = setting('CRASH_CYCLES', 50);
const concurrency = setting('CRASH_CONCURRENCY', 32);
const pgProcesses = Math.min(setting('CRASH_PROCESSES', 2), 2);
const wanted = (process.env.CRASH_BACKENDS || 'sqlite,postgres').split(',').map((b) => b.trim());
const backends: Backend[] = [];
if (wanted.includes('sqlite')) backends.push('sqlite');
if (wanted.includes('postgres')) {
  if (process.env.TEST_POSTGRES_URL) backends.push('postgres');
  else process.stdout.write('# SKIPPED: PostgreSQL (set TEST_POSTGRES_URL=postgres://user@host:5432/db to run it)\n');
}

// About 5 s a cycle here under heavy load; four times that, and a minute per backend to set up, bounds the run.
const timeoutSeconds = setting('CRASH_TIMEOUT_S', backends.length * (60 + 20 * cycles));
setTimeout(() => {
  process.stderr.write(`test:crash: FAILED: still running after ${timeoutSeconds} s\n`);
  process.exit(1);
}, timeoutSeconds * 1000).unref();

function report(f: Figures, seconds: number): boolean {
  const r = f.reversals;
  const d = f.deliveries;
  const c = f.clock;
  const b = f.bank;
  const ok =
    f.failures.length === 0 &&
    f.lost + r.lost + d.deliveriesMissing === 0 &&
    f.duplicated + r.duplicated === 0 &&
    c.checked === cycles &&
    f.bank.checked === cycles &&
    f.cycles === cycles;
  process.stdout.write(
    `${f.backend}: cycles ${f.cycles}, sent ${f.sent}, acknowledged ${f.acknowledged}, ` +
      `unanswered then retried ${f.unanswered} (of which replayed: ${f.replayed}; ` +
      `409 in progress met ${f.inProgress} times), lost ${f.lost}, duplicated ${f.duplicated}, ` +
      `events listed ${f.events} (missing ${f.eventsMissing}, extra ${f.eventsExtra}, numbering faults ` +
      `${f.numberingFaults}; unnumbered right after the kills ${f.unnumberedAtKill}), left unanswered by a server not killed ${f.survivorsUnanswered}, ` +
      `${f.integrityName}: ${f.integrityChecks} checks, ` +
      `reversals sent ${r.sent}, acknowledged ${r.acknowledged}, refused ${r.refused}, unanswered then retried ` +
      `${r.unanswered} (of which replayed: ${r.replayed}), lost ${r.lost}, duplicated ${r.duplicated}, ` +
      `ledger verify ok ${r.verified} times, ` +
      `webhook deliveries received ${d.deliveriesReceived} (delivery processes killed alone ${d.deliveryKills}; ` +
      `accounts whose event was never delivered ${d.deliveriesMissing}), ` +
      `clock advances sent ${c.advances}, acknowledged ${c.acknowledged}, refused (passed) ${c.refused}, ` +
      `unanswered then retried ${c.unanswered}, under way at the kill ${c.cutUnderWay} (of which finished by the ` +
      `background pass alone: ${c.finishedInBackground}), ` +
      `payments ${c.payments} and holds ${c.holds} checked ${c.checked} times, ` +
      `bank imports ${b.imports} (killed half-way: ${b.importsCutHalfway}), exports ${b.exports} (killed with their ` +
      `file written before its commit: ${b.exportsCutBeforeCommit}, before its final name: ${b.exportsCutBeforeRename}), ` +
      `${b.files} NACHA files, ${b.payments} payments out and ${b.lines} statement lines checked ${b.checked} times, ` +
      `${seconds.toFixed(1)} s: ${ok ? 'ok' : 'FAILED'}\n`,
  );
  for (const failure of f.failures.slice(0, 20)) process.stdout.write(`  ${failure}\n`);
  if (f.failures.length > 20) process.stdout.write(`  … and ${f.failures.length - 20} more\n`);
  return ok;
}

let failed = false;
for (const backend of backends) {
  const processes = backend === 'postgres' ? pgProcesses : 1;
  process.stdout.write(
    `# crash campaign: ${backend}, ${cycles} cycles, ${concurrency} requests in flight, ${processes} server process(es)\n`,
  );
  const started = performance.now();
  const progress = (f: Figures) => {
    if (f.cycles % 10 !== 0 || f.cycles === cycles) return;
    process.stdout.write(
      `  ${f.cycles}/${cycles} cycles: acknowledged ${f.acknowledged}, unanswered ${f.unanswered}, ` +
        `failures ${f.failures.length}\n`,
    );
  };
  const figures = await runCampaign(backend, { cycles, concurrency, processes, killAfterMs: [10, 300], progress });
  failed = !report(figures, (performance.now() - started) / 1000) || failed;
}
process.stdout.write(`# test:crash: ${failed ? 'FAILED' : 'every invariant held'}\n`);
process.exit(failed ? 1 : 0);
