/**
 * `node bench/request-log-instructions.ts`: what recording one successful read in the request log costs, in CPU
 * instructions counted by valgrind (callgrind), apart from the read (issue 44: within 10% of the read). The whole of
 * recording and nothing else: entries made by the real `entryOf` from a request and reply shaped as Fastify hands them
 * to the log's onResponse hook (a retrieve: GET, 200, no query), kept by the real recorder, written in its batches of
 * 256 through the group commit into a migrated SQLite file (the WAL's sync and the checkpointer's thread included).
 * No HTTP server, no API key: of what runs by the wall clock only the checkpointer's thread is left (a checkpoint at
 * most every 250 ms), so runs spread 25–34k per read on a busy machine (one of four: 72k) (bench/FINDINGS.md, 2026-11-28).
 * Two runs (after a warm-up of 40 batches, SHORT and LONG batches more); their difference over the reads between
 * them is one read's recording.
 *
 * `BENCH_PLINTH_ROOT=/path/to/another/checkout` counts that checkout's code (before/after on one machine).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(process.env.BENCH_PLINTH_ROOT ?? join(import.meta.dirname, '..'));
const BATCH = 256;
const WARMUP = 40;
const [SHORT, LONG] = [8, 24];

async function child(batches: number): Promise<void> {
  const { openDatabase } = await import(`${ROOT}/src/db/open.ts`);
  const { ALL_MIGRATIONS } = await import(`${ROOT}/src/modules.ts`);
  const { entryOf } = await import(`${ROOT}/src/modules/requests/entry.ts`);
  const { requestRecorder } = await import(`${ROOT}/src/modules/requests/recorder.ts`);
  const { Registry } = await import('prom-client');
  const dir = mkdtempSync(join(tmpdir(), 'plinth-reqlog-'));
  const database = openDatabase(`sqlite:${dir}/plinth.db`);
  await database.migrate(ALL_MIGRATIONS);
  const log = { warn() {}, error() {}, info() {} };
  const recorder = requestRecorder({ database, log, registry: new Registry(), capacity: 5000, flushMs: 60_000 });
  const principal = {
    orgId: 'org_01KAPQ9R3T1V2W3X4Y5Z6A7B8C',
    mode: 'sandbox',
    keyId: 'key_D20BX2JY00TY1SK00H0Y2JPAH1',
    keyHint: 'sk_test_…hXld',
    permissions: null,
  };
  const routeOptions = { url: '/v1/fintech/accounts/:id' };
  const reply = { statusCode: 200, elapsedTime: 0.8, getHeader: () => undefined };
  let n = 0;
  const read = () => {
    n++;
    const request = {
      id: `req_01KB${String(n).padStart(22, '0')}`,
      url: '/v1/fintech/accounts/acct_01KAPQ9R3V2W3X4Y5Z6A7B8C9D',
      method: 'GET',
      headers: { authorization: 'Bearer sk_test_…' },
      body: undefined,
      routeOptions,
      errorCode: null,
      answered: null,
    };
    recorder.record(entryOf(request, reply, { source: 'api', principal, routeUrl: routeOptions.url }));
  };
  for (let i = 0; i < WARMUP + batches; i++) {
    for (let j = 0; j < BATCH; j++) read();
    await recorder.flush();
  }
  await recorder.stop();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}

function count(batches: number): number {
  const run = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      '--smc-check=all-non-file',
      process.execPath,
      '--single-threaded',
      '--predictable-gc-schedule',
      '--hash-seed=1',
      '--random-seed=1',
      import.meta.filename,
      '--child',
      String(batches),
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const collected = /Collected : (\d+)/.exec(run.stderr);
  if (run.status !== 0 || collected === null) throw new Error(`valgrind failed:\n${run.stderr.slice(-2000)}`);
  return Number(collected[1]);
}

if (process.argv[2] === '--child') await child(Number(process.argv[3]));
else {
  const perRead = (count(LONG) - count(SHORT)) / ((LONG - SHORT) * BATCH);
  process.stdout.write(`${ROOT}: recording one successful read costs ${(perRead / 1000).toFixed(1)}k instructions\n`);
}
