import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.ts';
import { openDatabase } from './db/open.ts';
import { type DeliveryMessage, startDeliveryProcesses } from './modules/webhooks/engine/processes.ts';
import { ALL_MIGRATIONS, SEALED_COLUMNS } from './modules.ts';
import { stdoutLog } from './platform/http/log-stream.ts';
import type { SupervisorReport } from './platform/metrics/supervisor.ts';
import { requireSecretsKey } from './platform/secrets/key-check.ts';
import { secretBoxFor } from './platform/secrets/key-source.ts';
import { sayWhereServing, stopWithParent } from './started.ts';

/** Start-up failures in a row, none serving and the database answering, after which the supervisor exits. */
export const MAX_FAILURES_WITH_NONE_SERVING = 5;
/** Retry delays: 250 ms, doubling with each start-up failure in a row, never above 30 s. */
const FIRST_RETRY_MS = 250;
const RETRY_CAP_MS = 30_000;
/** At most one line about failing start-ups per this long, however often they fail. */
const FAILURE_LINE_EVERY_MS = 30_000;
/** While a replacement waits for its retry, how often the supervisor asks the database whether it answers. */
const PROBE_EVERY_MS = 1000;

export function retryDelayMs(failuresInARow: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** (failuresInARow - 1), RETRY_CAP_MS);
}

/** What a worker that cannot start tells its supervisor before it exits, instead of printing it itself. */
interface StartFailure {
  type: 'plinth.start-failure';
  reason: string;
}

/** A worker's side: hands its start-up error to the supervisor (which logs it, at most once per 30 s), then exits 1. */
export function exitWithStartFailure(reason: string): void {
  const message: StartFailure = { type: 'plinth.start-failure', reason };
  setTimeout(() => process.exit(1), 1000); // in case the channel never confirms
  process.send!(message, undefined, {}, () => process.exit(1));
}

const line = (text: string) => process.stderr.write(`plinth: ${text}\n`);

/**
 * While start-ups keep failing, one line per FAILURE_LINE_EVERY_MS at most, counting the failures it did not print;
 * the first failure after a worker listened always gets its line (it starts a new episode).
 */
function failureLines(): (text: string, first: boolean) => void {
  let lastAt = Number.NEGATIVE_INFINITY;
  let unprinted = 0;
  return (text, first) => {
    unprinted++;
    if (!first && Date.now() - lastAt < FAILURE_LINE_EVERY_MS) return;
    line(unprinted > 1 ? `${text} (${unprinted} failures since the last such line)` : text);
    lastAt = Date.now();
    unprinted = 0;
  };
}

/**
 * While `waiting()` holds, asks the database every PROBE_EVERY_MS whether it answers, and calls `back()` once when
 * it answers after not answering: a replacement that failed because the database was away need not sit out the rest
 * of its backoff. A failure with the database up (a port taken) never sees that change, so it keeps its backoff.
 */
function watchDatabase(url: string): (waiting: () => boolean, back: () => void) => void {
  let watching = false;
  return async (waiting, back) => {
    if (watching) return;
    watching = true;
    const probe = openDatabase(url, { poolSize: 1, onIdleError: () => undefined });
    try {
      let answered = await probe.ping();
      while (waiting()) {
        await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
        const answers = await probe.ping();
        if (answers && !answered && waiting()) back();
        answered = answers;
      }
    } finally {
      watching = false;
      await probe.close().catch(() => undefined);
    }
  };
}

/** One `select 1` on a connection of its own (3 s connect timeout): does the database answer now? */
async function databaseAnswers(url: string): Promise<boolean> {
  const probe = openDatabase(url, { poolSize: 1, onIdleError: () => undefined });
  try {
    return await probe.ping();
  } finally {
    await probe.close().catch(() => undefined);
  }
}

/**
 * WEB_CONCURRENCY > 1 (PostgreSQL only): this process migrates once, then runs that many workers sharing the port
 * (node:cluster). A worker that dies after it listened is replaced at once. One that dies before it listened (a
 * start-up failure: the database away, a port taken) is retried after a delay that doubles up to 30 s, or as soon
 * as the database answers again: a healthy worker is never stopped because another cannot start. Through a
 * database outage it retries however long it lasts. Only when no worker serves and MAX_FAILURES_WITH_NONE_SERVING
 * start-ups failed in a row with the database answering does it give up, with one line, and exit 1 (a deployment
 * that cannot start at all is its orchestrator's to restart). Every change is reported to the workers for /metrics.
 * On SIGTERM/SIGINT each worker drains.
 */
export async function supervise(config: Config): Promise<void> {
  const database = openDatabase(config.DATABASE_URL);
  await database.migrate(ALL_MIGRATIONS);
  // Checked here once, so that a wrong SECRETS_KEY stops start-up instead of failing every worker for ever.
  await requireSecretsKey(database, secretBoxFor(config), SEALED_COLUMNS, config).finally(() => database.close());
  const serving = new Set<Worker>();
  const reasons = new WeakMap<Worker, string>();
  const logFailure = failureLines();
  const watch = watchDatabase(config.DATABASE_URL);
  let failuresInARow = 0;
  let failuresWithDatabaseUp = 0; // of those, the ones with none serving while the database answered
  let failuresTotal = 0;
  let waiting = 0; // workers to start at the next retry
  let retryTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  let exitCode = 0;

  const workers = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
  const log = stdoutLog();
  // The delivery processes: poked when a worker committed; each round's attempts counted on one serving worker's /metrics.
  let turn = 0;
  const deliveries = startDeliveryProcesses(
    config.WEBHOOK_WORKERS,
    (reports) => {
      const to = [...serving].filter((w) => w.isConnected());
      const message: DeliveryMessage = { type: 'plinth.webhooks.attempts', reports };
      if (to.length > 0) to[turn++ % to.length]!.send(message, undefined, () => undefined);
    },
    (line) => log.stream.write(line),
  );
  const report = () => {
    const message: SupervisorReport = {
      type: 'plinth.supervisor',
      workersMissing: config.WEB_CONCURRENCY - serving.size,
      startFailures: failuresTotal,
    };
    for (const worker of workers()) if (worker.isConnected()) worker.send(message, undefined, () => undefined);
  };
  const fork = () => {
    const worker = cluster.fork({ PLINTH_WORKER: '1' });
    worker.on('message', (message: Partial<StartFailure> | DeliveryMessage) => {
      if (message?.type === 'plinth.webhooks.poke') deliveries.poke();
      if (message?.type === 'plinth.start-failure') reasons.set(worker, String((message as StartFailure).reason));
    });
  };
  const retryNow = () => {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    const count = waiting;
    waiting = 0;
    if (!stopping) for (let i = 0; i < count; i++) fork();
  };
  const startFailed = (worker: Worker, how: string) => {
    failuresInARow++;
    failuresTotal++;
    report();
    if (serving.size === 0) void giveUpUnlessTheDatabaseIsAway(how);
    const delayMs = retryDelayMs(failuresInARow);
    waiting++;
    retryTimer ??= setTimeout(retryNow, delayMs);
    const pid = worker.process.pid;
    logFailure(
      `worker ${pid} failed at start-up (${how}); ${failuresInARow} in a row; next try in ${delayMs} ms`,
      failuresInARow === 1,
    );
    watch(
      () => waiting > 0 && !stopping,
      () => {
        line('the database answers again; starting the missing workers now');
        retryNow();
      },
    );
  };

  /** Asked after a start-up failure with none serving: a database outage ends, a bad deployment does not. */
  async function giveUpUnlessTheDatabaseIsAway(how: string): Promise<void> {
    if (!(await databaseAnswers(config.DATABASE_URL)) || stopping || serving.size > 0) return;
    if (++failuresWithDatabaseUp < MAX_FAILURES_WITH_NONE_SERVING) return;
    const times = `${failuresWithDatabaseUp} times in a row with the database answering`;
    line(`workers failed at start-up ${times}, and none serves (last: ${how}); giving up`);
    stop(1);
  }

  let said = false;
  cluster.on('listening', (worker, address) => {
    const family = address.addressType === 6 ? 'IPv6' : 'IPv4';
    const info = { address: address.address ?? '127.0.0.1', port: address.port, family };
    if (!said) sayWhereServing(info, (text) => process.stderr.write(text));
    said = true;
    serving.add(worker);
    if (failuresInARow > 0) line(`worker ${worker.process.pid} listens, after ${failuresInARow} failed start-ups`);
    failuresInARow = 0;
    failuresWithDatabaseUp = 0;
    report();
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (workers().length === 0) void delivered.then(() => process.exit(exitCode));
      return;
    }
    const how = reasons.get(worker) ?? signal ?? `code ${code}`;
    if (!serving.delete(worker)) return startFailed(worker, how);
    line(`worker ${worker.process.pid} exited (${how}); starting another`);
    fork();
    report();
  });
  /** Every worker drains and exits (one still starting, too: exiting under it would crash it), then so does this. */
  let delivered: Promise<void> = Promise.resolve();
  function stop(code: number): void {
    stopping = true;
    exitCode = code;
    clearTimeout(retryTimer);
    delivered = deliveries.stop();
    for (const worker of workers()) worker.process.kill('SIGTERM');
    if (workers().length === 0) void delivered.then(() => process.exit(code)); // none to drain but the deliveries
  }
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
  stopWithParent(() => stop(0));
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
}
