/**
 * `npm run bench:instructions`: what one create and one transfer (plain, pending, or the post of a pending one) cost
 * in CPU instructions, counted by valgrind (callgrind), so that a change to the write path can be judged on a machine
 * whose wall-clock speed wanders. The count is repeatable for the same code and inputs; it leaves out the kernel's
 * side (the fsync, the socket), which `npm run bench` measures.
 *
 * Each load runs in its own process: the real app on a SQLite file, in this process (`inject`, no socket), rounds of
 * `BATCH` requests sent at once so that the group commit batches them as it would under 32 connections.
 *
 * By default one run per load is counted only in a window (see `countWindow`): WARMUP requests (21,000) first, then
 * CYCLES (3) whole cycles of V8's old generation, from the round after a mark-compact to the end of the round
 * holding the third next (about 4,500 creates or 7,500 retrieves; `CYCLE=0`: LONG − SHORT requests, 1,050). What
 * followed the clock is taken out of the window (bench/FINDINGS.md, 2026-11-28): the warm-up is long enough for V8's
 * tier-ups to be mostly over; a collection forced before the warm-up makes every window start from a like heap; V8's
 * incremental marking (on, as in a server) ends each cycle near the old generation's limit, and whole cycles take
 * its pacing by time out of the count; `--no-minor-gc-task` makes scavenges follow allocation alone; the
 * checkpointer's spacing follows the virtual clock and its answer is awaited between rounds; the request log is
 * written every 12 rounds, between rounds; the keys' last-use flush is stopped; the test server's in-process
 * webhook worker (which looked after every commit, as often as the machine's speed allowed) is stopped; V8 runs
 * single-threaded with a fixed GC schedule and fixed hash and random seeds. The child runs on a virtual clock
 * (`virtualClock`: timers, `Date.now` and `performance.now` move ROUND_MS, 10 ms, after each round), so every timer
 * of the server fires at the same request in every run, as often per request as natively. The line after each count
 * shows the group commit's batches in the window, the same in every run; `CALLGRIND_DIR` shows compiling and GC
 * apart. A window of a fixed length held a mark-compact (and the ~37 deoptimisations and recompiles that follow it,
 * 'embedded weak objects cleared') or none, which moved the count by 13% (bench/FINDINGS.md); a cycle holds one.
 * One cycle's length still moves by about ±10% run to run; three average it.
 *
 * `WINDOW=0` counts as before: a run of WARMUP + SHORT requests and one of WARMUP + LONG (defaults 420, 210, 630),
 * their difference divided by LONG − SHORT; with short warm-ups it carries V8's tier-ups and whichever collections
 * land in it, and two runs differed by 2× (issue 44).
 *
 * `TRACE=1` runs each load natively instead and lists what V8 compiles (bytecode, Sparkplug, Maglev, Turbofan,
 * regular expressions) and deoptimises in the window, by function and source position: a server in its steady state
 * should compile nothing. `CALLGRIND_DIR=<dir>` keeps each profile there and prints where its instructions went by
 * thread and group (compiling, garbage collection, builtins, SQLite…: bench/lib/callgrind.ts).
 *
 * `LOADS=create,transfer,retrieve,pending,post,reverse,balances,payment` chooses the loads (default: all but retrieve and
 * balances). `pending` is a transfer made with `"pending": true`; `post` posts one whole, each request a distinct
 * pending transfer made before the counted requests (as many in every run, so that they cancel out); each is compared
 * with a plain transfer (issue 24: within 10%). `reverse` reverses 1 of a distinct posted transfer of 2, made the same
 * way (issue 31: at most 1.15× a plain transfer). `payment` sends an ACH payment out (a hold until its cut-off, its
 * transfer and its payment), compared with `pending` (issue 41: at most 1.2×). `retrieve` and `balances` read one account with 100,000
 * transactions (bench/history.ts), as it is and at the middle of its history (`balances?at=`; issue 31: at most 1.5×
 * a retrieve). `REQUEST_LOG=compare` counts each load with the request log on and with `REQUEST_LOG=off`, and prints what
 * recording costs per request (entries written in the run are counted: the server is closed, and its last batch
 * written, inside the counted process). `retrieve-restricted` is `retrieve` with a restricted key holding
 * `accounts: read` (docs/api.md#restricted-keys), compared with `retrieve` (issue 32: at most 3% more).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { seedHistory } from './history.ts';
import { callgrindGroups } from './lib/callgrind.ts';

const BATCH = 21;
const WINDOW = process.env.WINDOW !== '0' || process.env.TRACE === '1';
// The window's defaults: a warm-up long enough for V8's tier-ups to be over (see bench/FINDINGS.md, 2026-11-28), and
// a window of 50 rounds.
const WARMUP = Number(process.env.WARMUP ?? (WINDOW ? 21_000 : 420));
const SHORT = Number(process.env.SHORT ?? (WINDOW ? 0 : 210));
const LONG = Number(process.env.LONG ?? (WINDOW ? 1050 : 630));
type LoadName =
  | 'create'
  | 'transfer'
  | 'retrieve'
  | 'retrieve-restricted'
  | 'pending'
  | 'post'
  | 'reverse'
  | 'balances'
  | 'payment';
const HISTORY = 100_000;

/**
 * The counted child's clock: `Date.now`, `performance.now`, `setTimeout` and `setInterval` follow a virtual clock
 * (node:test's mock timers), which the child moves on by ROUND_MS after each round, between rounds. Every timer of
 * the server (the key cache's expiry, the sweeps, the refusal summaries, the checkpointer's spacing) then fires at the
 * same request in every run, and as often per request as at native speed: under valgrind a round takes ~50× its
 * native time, so on the wall clock those timers ran 50× as often per request, more or less as the machine was busy.
 * Until the warm-up begins (start-up, the set-up's requests) and after the window, the virtual clock follows the wall
 * clock. `new Date()` is not changed (it is the real time: timestamps only, no timer depends on it).
 */
const ROUND_MS = Number(process.env.ROUND_MS ?? 10);
async function virtualClock() {
  const { mock } = await import('node:test');
  const [realSetInterval, realClearInterval, realNow] = [setInterval, clearInterval, Date.now];
  let now = realNow();
  const origin = now - performance.now();
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  Date.now = () => now;
  Object.defineProperty(performance, 'now', { value: () => now - origin, configurable: true, writable: true });
  const tick = (ms: number) => {
    now += ms;
    mock.timers.tick(ms);
  };
  let driver: ReturnType<typeof setInterval> | undefined;
  const follow = () => {
    let last = realNow();
    driver = realSetInterval(() => {
      const at = realNow();
      tick(Math.max(0, at - last));
      last = at;
    }, 5);
  };
  follow();
  return {
    /** From here on the clock moves only by `tick`. */
    stop: () => realClearInterval(driver),
    tick,
    /** Back to following the wall clock (the server's close waits on timers). */
    follow,
  };
}

async function child(load: LoadName, requests: number, requestLog: string): Promise<void> {
  const clock = await virtualClock();
  const { startServer } = await import('../test/helpers/server.ts');
  // Background passes run on wall-clock timers, and under valgrind a request takes ~50× as long: their passes would
  // count toward requests more or less as the machine is busy. The longest intervals keep them out of the count, and
  // the request log is written by count (a batch of 256 entries), not every REQUEST_LOG_FLUSH_MS.
  const server = await startServer({
    LOG_LEVEL: 'info',
    REQUEST_LOG: requestLog,
    SANDBOX_CLOCK_SWEEP_SECONDS: '3600',
    TRANSFER_EXPIRY_SWEEP_SECONDS: '60',
    IDEMPOTENCY_PURGE_INTERVAL_SECONDS: '86400',
    REQUEST_LOG_FLUSH_MS: '60000',
  });
  // The API process does not deliver webhooks (delivery processes do, src/deliver.ts); the test server's in-process
  // worker would look for deliveries after each commit, as often as the machine's speed allows.
  await server.app.webhookDelivery.stop(0);
  // Keys' last use is written every 30 s (platform/auth/usage.ts): under valgrind that is a write every few rounds,
  // as many as the machine's speed makes. Stopped here (what a request pays is recording it in a Map), and written
  // when the server closes.
  await server.app.keyUsage.stop();
  const key = await server.key('instructions');
  const post = async (url: string, body: object) => {
    const response = await server.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      payload: JSON.stringify(body),
    });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json() as { id: string };
  };
  const account = { type: 'business', country: 'US' };
  const from = (await post('/v1/fintech/accounts', account)).id;
  const to = (await post('/v1/fintech/accounts', account)).id;
  await post(`/v1/sandbox/fintech/accounts/${from}/deposits`, { amount: 1_000_000_000_000 });
  const reader =
    load === 'retrieve-restricted'
      ? ((await post('/v1/api_keys', { permissions: { accounts: 'read' } })) as unknown as { key: string }).key
      : key;
  const get = async (url: string) => {
    const response = await server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${reader}` } });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  };
  const transfer = { from_account_id: from, to_account_id: to, amount: 1, currency: 'USD' };
  // The payments' counterparty: an ACH payment out waits for its cut-off, so each create is a hold and its rows.
  const external =
    load === 'payment'
      ? (
          await post('/v1/fintech/external_accounts', {
            routing_number: '021000021',
            account_number: '000123456789',
            account_holder_name: 'Acme Supplies LLC',
            account_type: 'checking',
          })
        ).id
      : '';
  const payment = { account_id: from, external_account_id: external, amount: 1, currency: 'USD', rail: 'ach' };
  // The posts' pending transfers: as many in every run (the longest run's posts), so that the difference of two runs
  // counts posts alone.
  const held: string[] = [];
  const made = load === 'post' ? { ...transfer, pending: true } : { ...transfer, amount: 2 };
  if (load === 'post' || load === 'reverse')
    while (held.length < WARMUP + LONG)
      held.push(
        ...(await Promise.all(
          Array.from({ length: BATCH }, async () => (await post('/v1/fintech/transfers', made)).id),
        )),
      );
  // The reads' account: a fresh one with a long history, written straight into the database.
  const history = ['retrieve', 'retrieve-restricted', 'balances'].includes(load)
    ? (await post('/v1/fintech/accounts', account)).id
    : from;
  const at = history === from ? '' : seedHistory(server.databaseUrl.slice('sqlite:'.length), history, HISTORY);
  let next = 0;
  const loads: Record<LoadName, () => Promise<unknown>> = {
    create: () => post('/v1/fintech/accounts', account),
    retrieve: () => get(`/v1/fintech/accounts/${history}`),
    'retrieve-restricted': () => get(`/v1/fintech/accounts/${history}`),
    balances: () => get(`/v1/fintech/accounts/${history}/balances?at=${at}`),
    reverse: () => post(`/v1/fintech/transfers/${held[next++]}/reversals`, { amount: 1 }),
    transfer: () => post('/v1/fintech/transfers', transfer),
    pending: () => post('/v1/fintech/transfers', { ...transfer, pending: true }),
    post: () => post(`/v1/fintech/transfers/${held[next++]}/post`, {}),
    payment: () => post('/v1/fintech/payments', payment),
  };
  const one = loads[load];
  // The request log is written every 12 rounds (252 entries, one batch of its own), between rounds: left to itself it
  // writes at 256 entries, and the rest of a batch follows once the first is durable, so whether that joins a round's
  // batch or commits alone would depend on how long the fsync took against the CPU work meanwhile.
  // The test server keeps every log line in an array (server.logs); the bench keeps none, so that the heap (and so
  // GC's work per request) does not grow with the run as a server's writing to stdout would not.
  let rounds = 0;
  const round = async () => {
    await Promise.all(Array.from({ length: BATCH }, one));
    if (++rounds % 12 === 0) await server.app.requestLog.flush();
    server.logs.length = 0;
    clock.tick(ROUND_MS);
    // A checkpoint the tick asked for (sqlite-checkpointer.ts spaces them on this clock) runs on its own thread; its
    // answer is handled here, between rounds, and the next round's first write finds the WAL copied back, in every
    // run. Left to run beside the round, under valgrind it ended after a different request each time.
    await server.database.checkpointed?.();
  };
  clock.stop();
  if (!WINDOW) {
    for (let sent = 0; sent < WARMUP + requests; sent += BATCH) await round();
    clock.follow();
    await server.close();
    clock.stop();
    return;
  }
  // The window: the parent switches counting on between `ready` and `done` (see `countWindow`).
  // Every warm-up starts from the same heap: what the set-up left (the seeded history, its timers' work) is collected
  // first, so that the window's collections come at the same allocation, run after run. Not later: a forced
  // collection throws away compiled code, and V8 compiles the hot paths again some thousands of requests on.
  if (process.env.NO_GC !== '1') globalThis.gc?.();
  for (let sent = 0; sent < WARMUP; sent += BATCH) await round();
  // CYCLE (the default; CYCLE=0: a window of `requests`): the window is whole cycles of the old generation, from
  // the round after one mark-compact to the end of the round holding the CYCLES-th next. A window of a fixed 1,050 requests held
  // one mark-compact or none, and with it ~37 deoptimisations ('embedded weak objects cleared') and their recompiles:
  // 30k-193k per create of compiling, run to run (bench/FINDINGS.md). A cycle holds each once.
  const cycle = process.env.CYCLE !== '0';
  // CYCLES=n: n whole cycles (n mark-compacts). One cycle's length still varies (±10% natively, with the tiny
  // differences between runs that the set-up's wall clock leaves in the heap), and the mark-compact's cost and its
  // aftermath are spread over it; over three the count repeats (bench/FINDINGS.md).
  const cycles = Number(process.env.CYCLES ?? 3);
  let majors = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if ((entry as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) majors++;
  });
  if (cycle) {
    observer.observe({ entryTypes: ['gc'] });
    const seen = majors;
    for (let extra = 0; majors === seen && extra < 10 * requests; extra += BATCH) await round();
  }
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const batches = new Map<number, number>();
  server.database.onCommit((stats) => batches.set(stats.batchSize, (batches.get(stats.batchSize) ?? 0) + 1));
  // TRACE=1: V8's trace takes stdout, in blocks that may split a line, so the window's signals go by stderr.
  const signal = (line: string) => (process.env.TRACE === '1' ? process.stderr : process.stdout).write(`${line}\n`);
  signal('ready');
  await lines.next();
  batches.clear();
  traceMark('plinthWindowOpens');

  let counted = 0;
  const opened = majors;
  while (cycle ? majors - opened < cycles && counted < 10 * cycles * requests : counted < requests) {
    await round();
    counted += BATCH;
  }
  traceMark('plinthWindowCloses');
  observer.disconnect();
  process.stderr.write(`counted: ${counted}\n`);
  // The group commit's batches in the window (writes per batch × batches): the same in every run, or the count is not.
  const shares = [...batches].sort((a, b) => b[0] - a[0]).map(([size, n]) => `${n}×${size}`);
  process.stderr.write(`batches: ${shares.join(', ') || 'none'}\n`);
  signal('done');
  await lines.next();
  clock.follow();
  await server.close();
  clock.stop();
  process.stdin.destroy();
}

/**
 * TRACE=1: marks the window in V8's own code log (which V8 writes apart from process.stdout), by having V8 optimise a
 * function of that name there and then.
 */
function traceMark(name: string): void {
  if (process.env.TRACE !== '1') return;
  const marker = new Function(`return function ${name}() { return 1; }`)() as () => number;
  new Function('f', '%PrepareFunctionForOptimization(f); f(); %OptimizeFunctionOnNextCall(f); f();')(marker);
}

/**
 * TRACE=1: one native run per load (no valgrind) with V8's code log (`--log-code --log-deopt`): what V8 compiles
 * (bytecode `~`, Sparkplug `^`, Maglev `+`, Turbofan `*`, regular expressions) and deoptimises in the counted window,
 * after the warm-up, by function and source position. A server in its steady state should compile nothing.
 */
async function traceWindow(load: LoadName, requests: number, requestLog: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-trace-'));
  const log = join(dir, 'v8.log');
  const [node, ...rest] = childArguments(load, requests, requestLog);
  const flags = ['--log-code', '--log-deopt', `--logfile=${log}`, '--no-logfile-per-isolate', '--allow-natives-syntax'];
  const run = spawn(node!, [...flags, ...rest], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => run.on('close', resolve));
  run.stdout.resume();
  for await (const line of createInterface({ input: run.stderr })) {
    if (line === 'ready' || line === 'done') run.stdin.write('go\n');
    else process.stderr.write(`${line}\n`);
    requests = Number(/^counted: (\d+)$/.exec(line)?.[1] ?? requests);
  }
  if ((await exited) !== 0) throw new Error('the traced child failed');
  const lines = readFileSync(log, 'utf8').split('\n');
  rmSync(dir, { recursive: true, force: true });
  const from = lines.findIndex((l) => l.startsWith('code-creation,') && l.includes('plinthWindowOpens'));
  const to = lines.findIndex((l) => l.startsWith('code-creation,') && l.includes('plinthWindowCloses'));
  const window = lines.slice(from + 1, to);
  const TIERS: Record<string, string> = { '~': 'bytecode', '^': 'Sparkplug', '+': 'Maglev', '*': 'Turbofan' };
  const compiled: string[] = [];
  const deopts: string[] = [];
  for (const line of window) {
    const code =
      /^code-creation,(JS|RegExp|Eval|Script|Function|LazyCompile),\d+,\d+,0x[0-9a-f]+,\d+,(.*?)(?:,0x[0-9a-f]+,([~^+*]'?))?$/.exec(
        line,
      );
    if (code !== null) {
      const tier = code[1] === 'JS' ? (TIERS[code[3]?.[0] ?? ''] ?? code[3]) : code[1];
      compiled.push(
        `${tier} ${code[2]!.replace(/^"|"$/g, '').replace(/file:\/\/\S*?\/(src|node_modules|bench|test)\//, '$1/')}`,
      );
      continue;
    }
    const deopt = /^code-deopt,\d+,\d+,0x[0-9a-f]+,-?\d+,\d+,([\w-]+),(<[^>]*>),(.*)$/.exec(line);
    if (deopt !== null)
      deopts.push(
        `${deopt[1]} at ${deopt[2]!.replace(/file:\/\/\S*?\/(src|node_modules|bench|test)\//g, '$1/')}: ${deopt[3]}`,
      );
  }
  const tally = (items: string[]) => {
    const by = new Map<string, number>();
    for (const item of items) by.set(item, (by.get(item) ?? 0) + 1);
    return [...by].sort((x, y) => y[1] - x[1]);
  };
  const tiers = tally(compiled.map((c) => c.split(' ')[0]!));
  process.stdout.write(
    `${load}: ${requests} requests after ${WARMUP}: ${compiled.length} compiles ` +
      `(${tiers.map(([t, n]) => `${t} ${n}`).join(', ') || 'none'}), ${deopts.length} deoptimisations\n`,
  );
  for (const [what, n] of tally(compiled).slice(0, Number(process.env.TRACE_TOP ?? 30)))
    process.stdout.write(`  ${n}× ${what}\n`);
  for (const [what, n] of tally(deopts).slice(0, Number(process.env.TRACE_TOP ?? 30)))
    process.stdout.write(`  ${n}× deopt ${what}\n`);
}

/**
 * The default (unless WINDOW=0): one run per load, counted only from the end of the warm-up to the last counted
 * request (callgrind's instrumentation switched on and off by `callgrind_control`), so that start-up (most of a run's
 * instructions) is not simulated in full and no second run is needed. The count still includes what V8 compiles and collects meanwhile.
 */
async function countWindow(load: LoadName, requests: number, requestLog: string): Promise<number> {
  const keep = process.env.CALLGRIND_DIR;
  const out =
    keep === undefined ? [] : [`--callgrind-out-file=${keep}/${load}-${requestLog}.%p`, '--separate-threads=yes'];
  const run = spawn(
    'valgrind',
    [...VALGRIND, ...out, '--instr-atstart=no', ...childArguments(load, requests, requestLog)],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  run.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => run.on('close', resolve));
  for await (const line of createInterface({ input: run.stdout })) {
    const on = line === 'ready' ? 'on' : line === 'done' ? 'off' : null;
    if (on === null) continue;
    spawnSync('callgrind_control', ['-i', on, String(run.pid)]);
    run.stdin.write('go\n');
  }
  const status = await exited;
  const collected = /Collected : (\d+)/.exec(stderr);
  if (status !== 0 || collected === null) throw new Error(`valgrind failed:\n${stderr.slice(-2000)}`);
  const batches = stderr.split('\n').find((line) => line.startsWith('batches: '));
  requests = Number(/counted: (\d+)/.exec(stderr)?.[1] ?? requests);
  process.stdout.write(`  ${load}: ${requests} requests after ${WARMUP}; the group commit's ${batches}\n`);
  if (keep !== undefined) {
    for (const file of readdirSync(keep)
      .filter((f) => f.startsWith(`${load}-${requestLog}.${run.pid}`))
      .sort()) {
      const { total, groups } = callgrindGroups(join(keep, file));
      const k = (n: number) => `${(n / requests / 1000).toFixed(1)}k`;
      process.stdout.write(
        `  ${file}: ${k(total)} per request: ${[...groups]
          .sort((a, b) => b[1] - a[1])
          .map(([g, n]) => `${g} ${k(n)}`)
          .join(', ')}\n`,
      );
    }
  }
  return Number(collected[1]) / requests;
}

const VALGRIND = ['--tool=callgrind', '--callgrind-out-file=/dev/null', '--smc-check=all-non-file'];
const childArguments = (load: LoadName, requests: number, requestLog: string) => [
  process.execPath,
  // No background compiler or GC threads, and a fixed GC schedule: the count then varies by well under 1%.
  '--single-threaded',
  '--predictable-gc-schedule',
  '--max-semi-space-size=8',
  // The same hash seed and random seed in every run: hash tables laid out alike, run after run.
  '--hash-seed=1',
  '--random-seed=1',
  '--expose-gc',
  // Incremental marking stays on, as in a server: V8 paces it by elapsed time, so a window of a fixed number of
  // requests held 1 to 3 mark-compacts under valgrind, but the window is whole cycles. `--no-incremental-marking` made
  // cycles follow allocation alone and yet not repeat: without marking under way V8 marks and compacts only at an old
  // space allocation of the program's own after the limit, 15-38 MB of promotion past it (cycles of 2,709 to 6,636
  // creates natively, the same code; with incremental marking 21-28 scavenges each; bench/FINDINGS.md).
  // V8 posts a scavenge as a task once the young generation is 80% full, and it runs when the event loop next turns
  // to V8's tasks: between two requests or ten, as the fsyncs' completions fall. Two native runs of 4,200 + 1,050
  // creates then differed in their collections (207 and 209, their sizes apart from the first); without the task a
  // scavenge comes when an allocation finds the young generation full, and the same runs agree (bench/FINDINGS.md).
  '--no-minor-gc-task',
  // V8_FLAGS: more flags for the counted child (an experiment: `V8_FLAGS=--no-flush-bytecode`).
  ...(process.env.V8_FLAGS ?? '').split(' ').filter((flag) => flag !== ''),
  import.meta.filename,
  '--child',
  load,
  String(requests),
  requestLog,
];

function count(load: LoadName, requests: number, requestLog = 'on'): number {
  const run = spawnSync('valgrind', [...VALGRIND, ...childArguments(load, requests, requestLog)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const collected = /Collected : (\d+)/.exec(run.stderr);
  if (run.status !== 0 || collected === null) throw new Error(`valgrind failed:\n${run.stderr.slice(-2000)}`);
  return Number(collected[1]);
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as LoadName, Number(process.argv[4]), process.argv[5]!);
} else {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    process.stderr.write('bench:instructions needs valgrind: apt-get install valgrind\n');
    process.exit(1);
  }
  const per: Partial<Record<LoadName, number>> = {};
  const perRequest = async (load: LoadName, requestLog = 'on') =>
    WINDOW
      ? await countWindow(load, LONG - SHORT, requestLog)
      : (count(load, LONG, requestLog) - count(load, SHORT, requestLog)) / (LONG - SHORT);
  const compare = process.env.REQUEST_LOG === 'compare';
  if (process.env.TRACE === '1') {
    for (const load of (process.env.LOADS ?? 'create,transfer,pending,post').split(',') as LoadName[])
      await traceWindow(load, LONG - SHORT, 'on');
    process.exit(0);
  }
  for (const load of (process.env.LOADS ?? 'create,transfer,pending,post').split(',') as LoadName[]) {
    per[load] = await perRequest(load);
    process.stdout.write(`${load}: ${(per[load] / 1000).toFixed(0)}k instructions per request\n`);
    if (!compare) continue;
    const off = await perRequest(load, 'off');
    process.stdout.write(
      `${load}, REQUEST_LOG=off: ${(off / 1000).toFixed(0)}k; with the request log ${(per[load] / 1000).toFixed(0)}k ` +
        `(+${(((per[load] - off) / off) * 100).toFixed(1)}%, a throughput of ${(off / per[load]).toFixed(2)}× ` +
        'where the CPU is the limit)\n',
    );
  }
  if (per.create !== undefined && per.transfer !== undefined)
    process.stdout.write(`transfer vs create, by instructions: ${(per.create / per.transfer).toFixed(2)}×\n`);
  // Issue 32: the permission check costs a restricted key's retrieve at most 3% more than a full key's.
  if (per.retrieve !== undefined && per['retrieve-restricted'] !== undefined) {
    const more = (per['retrieve-restricted'] / per.retrieve - 1) * 100;
    process.stdout.write(
      `retrieve, restricted key vs full key: ${more >= 0 ? '+' : ''}${more.toFixed(2)}% instructions per request ` +
        `(wanted ≤ 3%) ${more <= 3 ? 'pass' : 'FAIL'}\n`,
    );
  }
  // Issue 24: a pending transfer, and the post of one, cost at most 10% more than a plain transfer.
  // Issue 31: a reversal costs at most 1.15× a plain transfer, a balance at a past moment at most 1.5× a retrieve.
  const compared = [
    ['pending', 'transfer', 1 / 0.9],
    ['post', 'transfer', 1 / 0.9],
    ['reverse', 'transfer', 1.15],
    ['balances', 'retrieve', 1.5],
    // Issue 41: a payment out (a hold, its transfer and its payment) costs at most 1.2× a pending transfer.
    ['payment', 'pending', 1.2],
  ] as const;
  for (const [load, base, most] of compared) {
    const [cost, baseCost] = [per[load], per[base]];
    if (cost === undefined || baseCost === undefined) continue;
    const ratio = cost / baseCost;
    process.stdout.write(
      `${load} vs ${base}, by instructions: ${ratio.toFixed(3)}× the cost (${(baseCost / cost).toFixed(2)}× the ` +
        `throughput; wanted ≤ ${most.toFixed(2)}× the cost) ${ratio <= most ? 'pass' : 'FAIL'}\n`,
    );
  }
}
