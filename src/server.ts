import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { lockSqliteForServer } from './db/sqlite-lock.ts';
import { ALL_MIGRATIONS } from './migrations.ts';
import { stdoutLog } from './platform/http/log-stream.ts';

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`plinth: bad configuration: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

function sqlitePath(config: Config): string | null {
  const url = config.DATABASE_URL;
  return url.startsWith('sqlite:') && url !== 'sqlite::memory:' ? url.slice('sqlite:'.length) : null;
}

/** After the grace period, how long closing the app and the database may still take before the process exits. */
const HARD_STOP_MARGIN_MS = 3000;

/** One server: build the app, listen; on SIGTERM/SIGINT drain in-flight requests, close the database, exit 0. */
async function serve(config: Config, migrate: boolean): Promise<void> {
  const path = sqlitePath(config);
  const release = path === null ? () => undefined : lockSqliteForServer(path);
  let logIdleError: (error: Error) => void = () => undefined;
  const database = openDatabase(config.DATABASE_URL, {
    poolSize: config.DATABASE_POOL_SIZE,
    onIdleError: (error) => logIdleError(error),
  });
  // Before anything is written or served: a database that could lose an acknowledged commit stops start-up.
  await database.checkDurability();
  if (migrate) await database.migrate(ALL_MIGRATIONS);
  const log = stdoutLog();
  const app = await buildApp({ config, database, logStream: log.stream });
  logIdleError = (error) => app.log.warn({ err: error }, 'database: an idle connection failed; it will be replaced');

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    let forced = false;
    const force = setTimeout(() => {
      forced = true;
      app.log.error({ grace_ms: config.SHUTDOWN_GRACE_MS }, 'grace period over: closing remaining connections');
      app.server.closeAllConnections();
    }, config.SHUTDOWN_GRACE_MS);
    // Whatever still hangs after that (a database that never answers its close), the process ends, with code 1.
    setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS + HARD_STOP_MARGIN_MS).unref();
    // Delivery workers stop claiming at once; their attempts in flight finish (and are recorded) within the same
    // grace period as the requests, and anything left is claimed again after restart when its lease ends.
    await Promise.all([app.webhookDelivery.stop(config.SHUTDOWN_GRACE_MS), app.close()]);
    await database.close();
    release();
    clearTimeout(force);
    app.log.info({ forced }, 'stopped');
    await log.flush();
    process.exit(forced ? 1 : 0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.HOST, port: config.PORT });
  app.webhookDelivery.start();
}

/** Consecutive start-up failures after which the supervisor stops re-forking and exits. */
const MAX_STARTUP_FAILURES = 5;

/**
 * WEB_CONCURRENCY > 1 (PostgreSQL only): this process migrates once, then runs that many workers sharing the
 * port (node:cluster). A worker that dies after it listened is replaced at once; one that dies before listening
 * (a start-up failure, which would only repeat) is retried with a doubling delay, and after
 * MAX_STARTUP_FAILURES in a row the supervisor gives up with one line. On SIGTERM/SIGINT each worker drains.
 */
async function supervise(config: Config): Promise<void> {
  const database = openDatabase(config.DATABASE_URL);
  await database.migrate(ALL_MIGRATIONS);
  await database.close();
  let stopping = false;
  let startupFailures = 0;
  const listened = new WeakSet<object>();
  const fork = () => cluster.fork({ PLINTH_WORKER: '1' });
  cluster.on('listening', (worker) => {
    listened.add(worker);
    startupFailures = 0;
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const how = signal ?? `code ${code}`;
    if (listened.has(worker)) {
      process.stderr.write(`plinth: worker ${worker.process.pid} exited (${how}); starting another\n`);
      fork();
      return;
    }
    startupFailures++;
    if (startupFailures >= MAX_STARTUP_FAILURES) {
      process.stderr.write(
        `plinth: workers failed at start-up ${startupFailures} times in a row (last: ${how}); giving up\n`,
      );
      stop();
      process.exit(1);
    }
    const delayMs = Math.min(250 * 2 ** (startupFailures - 1), 10_000);
    process.stderr.write(
      `plinth: worker ${worker.process.pid} failed at start-up (${how}); retrying in ${delayMs} ms\n`,
    );
    setTimeout(() => stopping || fork(), delayMs);
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
}

async function main(): Promise<void> {
  const config = configOrExit();
  if (cluster.isPrimary && config.WEB_CONCURRENCY > 1) await supervise(config);
  else await serve(config, process.env.PLINTH_WORKER !== '1');
}

main().catch((error: unknown) => {
  process.stderr.write(`plinth: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
