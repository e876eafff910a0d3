/**
 * `npm run bench:quick`: the SQLite targets of issue 10 and 12 in about two minutes, for iterating on the write
 * path: the bare node:http ceilings, then Plinth's create, retrieve and transfer loads on one empty database, then the
 * create load with one webhook endpoint, then create and retrieve with the request log on and off, then pending
 * transfers and posts against plain transfers, then creates with five open event streams against none (same loads and
 * settings as `npm run bench`). Prints the ratios; writes nothing. `npm run bench` is the record. BENCH_QUICK=pending
 * runs the pending-transfer loads alone, BENCH_QUICK=balances the balances-at-a-moment loads alone,
 * BENCH_QUICK=streams the event-stream loads alone, BENCH_QUICK=slow-disk the slow-disk loads alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Load, loadCreate, loadGet, loadTransfer } from './lib/load.ts';
import { createOne, depositInto, startPlinth } from './lib/plinth.ts';
import { start, stop, watchRss } from './lib/process.ts';
import { balancesPhase } from './phases/balances.ts';
import { pendingPhase } from './phases/pending.ts';
import { requestLogPhase } from './phases/request-log.ts';
import { slowDiskLines, slowDiskPhase, slowDiskTargets } from './phases/slow-disk.ts';
import { STREAMS, streamsPhase } from './phases/streams.ts';
import { webhookPhase } from './phases/webhooks.ts';

const dir = mkdtempSync(join(tmpdir(), 'plinth-quick-'));
const show = (name: string, load: Load, ceiling?: Load) =>
  process.stdout.write(
    `${name.padEnd(22)} ${load.rps.toFixed(0).padStart(7)} req/s  p50 ${load.p50} ms  p99 ${load.p99} ms  ` +
      `non-2xx ${load.non2xx} errors ${load.errors}  cpu pressure ${((load.pressure.cpu ?? 0) * 100).toFixed(0)}%` +
      `${ceiling ? `  = ${(load.rps / ceiling.rps).toFixed(2)}×` : ''}\n`,
  );
async function pending() {
  const r = await pendingPhase({ dir });
  show('transfer, plain', r.plain);
  show('pending (vs plain)', r.pending, r.plain);
  show('transfer, plain again', r.plainAgain);
  show('post (vs plain again)', r.post, r.plainAgain);
  const ms = (side: keyof typeof r.cpu) => r.cpu[side].server.toFixed(2);
  process.stdout.write(
    `  server CPU ms per request: plain ${ms('plain')}, pending ${ms('pending')}; plain again ` +
      `${ms('plainAgain')}, post ${ms('post')}\n`,
  );
}

async function all() {
  const bare = await start({ args: ['bench/servers/bare-http.ts'], env: {}, logFile: join(dir, 'bare.log') });
  const bareCreate = await loadCreate(bare.port, null);
  const bareRetrieve = await loadGet(bare.port, '/v1/fintech/accounts/acct_01KAQX7ZJ0Q9W3H6T8V2N4M5PB', null);
  await stop(bare);
  show('bare POST', bareCreate);
  show('bare GET', bareRetrieve);
  const server = await startPlinth({ databaseUrl: `sqlite:${join(dir, 'quick.db')}`, dir, name: 'quick' });
  const peak = watchRss(server.child.pid!);
  const create = await loadCreate(server.port, server.authorization);
  show('create', create, bareCreate);
  const id = await createOne(server);
  show('retrieve', await loadGet(server.port, `/v1/fintech/accounts/${id}`, server.authorization), bareRetrieve);
  const to = await createOne(server);
  await depositInto(server, id, 1_000_000_000_000);
  show('transfer (vs create)', await loadTransfer(server.port, server.authorization, id, to), create);
  process.stdout.write(`RSS peak ${peak().toFixed(0)} MiB\n`);
  await stop(server);
  const hooks = await webhookPhase(dir);
  show('create, one endpoint', hooks.create, create);
  process.stdout.write(
    `  events delivered during it ${hooks.deliveredPerSecond.toFixed(0)}/s; the backlog of ${hooks.events} ` +
      `${hooks.drainSeconds === null ? 'did not drain' : `drained ${hooks.drainSeconds.toFixed(1)} s after`}\n`,
  );
  const log = await requestLogPhase(dir);
  show('create, log off', log.off.create);
  show('create, log on (vs off)', log.on.create, log.off.create);
  show('retrieve, log off', log.off.retrieve);
  show('retrieve, log on (vs off)', log.on.retrieve, log.off.retrieve);
  await pending();
  await balances();
  await streams();
}

async function balances() {
  const r = await balancesPhase(dir);
  show('retrieve (history)', r.retrieve);
  show('balances?at= (vs it)', r.balances, r.retrieve);
}

/** `BENCH_QUICK=streams`: creates with five open event streams against none (issue 34: ≥ 0.95×). */
async function streams() {
  const r = await streamsPhase(dir);
  show('create, no stream', r.none);
  show(`create, ${STREAMS} streams (vs none)`, r.five, r.none);
  process.stdout.write(`  bytes the streams received: ${r.bytesReceived}\n`);
}

/** `BENCH_QUICK=slow-disk`: the create loads with a retrieve beside them, every fsync 5 ms slower vs not (issue 44). */
async function slowDisk() {
  const results = await slowDiskPhase(dir);
  for (const t of slowDiskTargets(results))
    process.stdout.write(`${t.name}: ${t.measured} (wanted ${t.target}) ${t.pass ? 'pass' : 'FAIL'}\n`);
  process.stdout.write(`${slowDiskLines(results).join('\n')}\n`);
}

const phases: Record<string, () => Promise<void>> = { pending, balances, streams, 'slow-disk': slowDisk };
try {
  await (phases[process.env.BENCH_QUICK ?? ''] ?? all)();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
