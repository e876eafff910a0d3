/**
 * `npm run test:powerloss`: power-loss safety, proven (issue 39; docs/deploy.md, "Power loss"). A `kill -9` leaves
 * the page cache intact, so it cannot test whether an answered write was on stable storage; losing what was not
 * synced can. Here the SQLite database (and the server's generated key file) live on test/powerloss/lazyfs.py, a FUSE
 * file system that keeps every unsynced byte and directory entry in memory and drops them at a power cut. Per cycle:
 *
 *   concurrent creates, sandbox deposits and transfers against the real server (`node src/server.ts` on 127.0.0.1),
 *   each with its own Idempotency-Key → a power cut (the server frozen with SIGSTOP at that instant, every unsynced
 *   byte dropped) at one of four moments in turn: a random time; just before the WAL's nth fdatasync; at the nth
 *   write to the database file (inside a checkpoint); at such a write once the WAL passed the checkpointer's 4,000
 *   frames → SIGKILL, unmount, mount again, restart → every acknowledged write, sent again with its key, is replayed
 *   byte for byte (else it was lost), reads back as acknowledged, and every unanswered one retried with its key is
 *   answered; the accounts' balances are what the answered writes add up to; `PRAGMA integrity_check` is ok; `ledger
 *   verify` exits 0. At the end: SIGTERM, one more cut (the unmount), and every write of the campaign checked again.
 *
 * The control: POWERLOSS_UNSAFE=1 runs the same with the server's WAL sync a no-op (PLINTH_TEST_UNSAFE_NO_WAL_SYNC);
 * that run must report lost writes, and exits 1 saying `lost N` (npm test requires it to, see scripts/test.ts).
 *
 * Settings: POWERLOSS_CYCLES (default 24; `npm test` runs 4), POWERLOSS_CONCURRENCY (default 16), POWERLOSS_TIMEOUT_S
 * (the whole run fails past it; default 60 s + 60 s a cycle), POWERLOSS_STOP_AFTER_LOSSES (end once writes were lost
 * in this many cycles: `npm test`'s control), POWERLOSS_LAZYFS (the path of LazyFS's binary, built from
 * github.com/dsrhaslab/lazyfs, to run on it instead: cuts at random moments only; the hand check of lazyfs.py). Where FUSE cannot run, the run is skipped, saying why
 * (exit 0 with `# SKIPPED`). Exit code 1 when any invariant failed, with the first failures printed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Campaign, type Figures } from './campaign.ts';
import { fuseUnavailable, LazyMount, UpstreamLazyMount } from './fs.ts';

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`test:powerloss: ${name} must be a whole number ≥ 1, not ${raw}\n`);
    process.exit(2);
  }
  return value;
}

const cycles = setting('POWERLOSS_CYCLES', 24);
const concurrency = setting('POWERLOSS_CONCURRENCY', 16);
const unsafe = process.env.POWERLOSS_UNSAFE === '1';
const stopAfterLossyCycles = process.env.POWERLOSS_STOP_AFTER_LOSSES
  ? setting('POWERLOSS_STOP_AFTER_LOSSES', 1)
  : undefined;
const timeoutSeconds = setting('POWERLOSS_TIMEOUT_S', 60 + 60 * cycles);

const scratch = mkdtempSync(join(tmpdir(), 'plinth-powerloss-'));
const unavailable = fuseUnavailable(scratch);
if (unavailable !== undefined) {
  rmSync(scratch, { recursive: true, force: true });
  process.stdout.write(`# SKIPPED: the power-loss campaign needs FUSE: ${unavailable}\n`);
  process.exit(0);
}

// The hand check against LazyFS built from its source (docs/deploy.md): POWERLOSS_LAZYFS=<its build/lazyfs>.
const upstream = process.env.POWERLOSS_LAZYFS;
const mount =
  upstream === undefined || upstream === ''
    ? new LazyMount(join(scratch, 'backing'), join(scratch, 'mount'))
    : new UpstreamLazyMount(upstream, join(scratch, 'backing'), join(scratch, 'mount'));
setTimeout(() => {
  process.stderr.write(`test:powerloss: FAILED: still running after ${timeoutSeconds} s\n`);
  mount.forceUnmount();
  process.exit(1);
}, timeoutSeconds * 1000).unref();

process.stdout.write(
  `# power-loss campaign${unsafe ? ' (CONTROL: the WAL sync is a no-op; lost writes must be found)' : ''}: ` +
    `up to ${cycles} cycles, ${concurrency} requests in flight, SQLite on ${upstream ? 'LazyFS' : 'lazyfs.py'}\n`,
);
const started = performance.now();
const progress = (f: Figures) => {
  if (f.cycles % 5 === 0)
    process.stdout.write(
      `  ${f.cycles} cycles: acknowledged ${f.acknowledged}, lost ${f.lost}, failures ${f.failures.length}\n`,
    );
};
const figures = await new Campaign(mount, { cycles, concurrency, unsafe, stopAfterLossyCycles, progress }).run();
rmSync(scratch, { recursive: true, force: true });

const m = figures.moments;
const ok = figures.failures.length === 0 && figures.lost === 0;
process.stdout.write(
  `sqlite on ${upstream ? 'LazyFS' : 'lazyfs.py'}${unsafe ? ' with no WAL sync' : ''}: cycles ${figures.cycles} (cut at random ${m.random}, ` +
    `before a WAL sync ${m['wal-sync']}, inside a checkpoint ${m.checkpoint}, inside a checkpoint past ` +
    `${4000} WAL frames ${m['past-threshold']}), sent ${figures.sent}, acknowledged ${figures.acknowledged}, ` +
    `unanswered then retried ${figures.unanswered} (of which replayed: ${figures.replayed}), ` +
    `unsynced bytes dropped ${figures.unsyncedAtCut}, lost ${figures.lost} (in ${figures.cyclesWithLosses} cycles), ` +
    `PRAGMA integrity_check ok ${figures.integrityChecks - figures.failures.filter((f) => f.includes('integrity')).length}/${figures.integrityChecks}, ` +
    `ledger verify ok ${figures.verified} times, ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
    `${ok ? 'ok' : 'FAILED'}\n`,
);
for (const failure of figures.failures.slice(0, 20)) process.stdout.write(`  ${failure}\n`);
if (figures.failures.length > 20) process.stdout.write(`  … and ${figures.failures.length - 20} more\n`);
process.stdout.write(`# test:powerloss: ${ok ? 'every acknowledged write survived every cut' : 'FAILED'}\n`);
process.exit(ok ? 0 : 1);
