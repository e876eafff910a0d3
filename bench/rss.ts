/**
 * `npm run bench:rss`: the API server's peak resident memory (VmHWM) under each load of `npm run bench`, without the
 * whole run. BENCH_RSS names the phases to run, comma-separated (all of them when unset):
 *   sqlite (create, retrieve, transfers, then creates on 1,000,000 accounts: seeding them takes minutes; with
 *   BENCH_SEED_ACCOUNTS fewer), paced (webhooks at a set rate, BENCH_RSS_PACED_RATE, 1,000/s), webhooks, request-log,
 *   pending, balances, clock, bank-import, streams, slow-disk, postgres.
 * e.g. `BENCH_RSS=webhooks,bank-import BENCH_SECONDS=5 node bench/rss.ts`. Prints one line per server (its name:
 * the load it ran) and the worst against 200 MB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { otherRssPeaks, rssPeaks } from './lib/plinth.ts';
import { rssLine, worstRss } from './lib/report.ts';
import { balancesPhase } from './phases/balances.ts';
import { bankImportPhase } from './phases/bank-import.ts';
import { clockPhase } from './phases/clock.ts';
import { pendingPhase } from './phases/pending.ts';
import { postgresPhases } from './phases/postgres.ts';
import { requestLogPhase } from './phases/request-log.ts';
import { slowDiskPhase } from './phases/slow-disk.ts';
import { sqlitePhases } from './phases/sqlite.ts';
import { streamsPhase } from './phases/streams.ts';
import { webhookPacedPhase, webhookPhase } from './phases/webhooks.ts';

const PHASES: Record<string, (dir: string) => Promise<unknown>> = {
  sqlite: sqlitePhases,
  paced: (dir) => webhookPacedPhase(dir, Number(process.env.BENCH_RSS_PACED_RATE ?? 1000)),
  webhooks: webhookPhase,
  'request-log': requestLogPhase,
  pending: (dir) => pendingPhase({ dir }),
  balances: balancesPhase,
  clock: clockPhase,
  'bank-import': (dir) => bankImportPhase(dir),
  streams: streamsPhase,
  'slow-disk': slowDiskPhase,
  postgres: postgresPhases,
};

const wanted = (process.env.BENCH_RSS ?? Object.keys(PHASES).join(',')).split(',').filter(Boolean);
const unknown = wanted.filter((name) => !(name in PHASES));
if (unknown.length > 0)
  throw new Error(`BENCH_RSS: no phase ${unknown.join(', ')} (${Object.keys(PHASES).join(', ')})`);
const dir = mkdtempSync(join(tmpdir(), 'plinth-rss-'));
try {
  for (const name of wanted) {
    // A phase that fails still leaves the peaks of those before it (and its own, so far) to print.
    await PHASES[name]!(dir).then(
      () => process.stdout.write(`${name} done\n`),
      (error: Error) => process.stdout.write(`${name} FAILED: ${error.message.slice(0, 300)}\n`),
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const [name, mib] of [...rssPeaks].sort((a, b) => b[1] - a[1]))
  process.stdout.write(`${name.padEnd(28)} ${String(mib).padStart(4)} MiB (${(mib * 1.048576).toFixed(0)} MB)\n`);
for (const [name, mib] of otherRssPeaks)
  process.stdout.write(
    `${name.padEnd(28)} ${String(mib).padStart(4)} MiB (not in the target: not the server, or the server with a preload)\n`,
  );
const worst = worstRss(rssPeaks);
if (worst !== null) process.stdout.write(`${rssLine(worst)}\n`);
