import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { lockSqliteForServer } from './db/sqlite-lock.ts';

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

/** One server: build the app, listen; on SIGTERM/SIGINT drain in-flight requests, close the database, exit 0. */
async function serve(config: Config, migrate: boolean): Promise<void> {
  const release = config.databaseUrl.startsWith('sqlite:') && config.databaseUrl !== 'sqlite::memory:' ? lockSqliteForServer(config.databaseUrl.slice('sqlite:'.length)) : () => undefined;
  let logIdleError: (error: Error) => void = () => undefined;
  const database = openDatabase(config.databaseUrl, { poolSize: config.databasePoolSize, onIdleError: (error) => logIdleError(error) });
  if (migrate) await migrateToLatest(database.db);
  const app = await buildApp({ config, database });
  logIdleError = (error) => app.log.warn({ err: error }, 'database: an idle connection failed; it will be replaced');

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => {
      app.log.error({ grace_ms: config.shutdownGraceMs }, 'grace period over: closing remaining connections');
      app.server.closeAllConnections();
    }, config.shutdownGraceMs);
    force.unref();
    await app.close();
    await database.close();
    release();
    clearTimeout(force);
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
}

/**
 * WEB_CONCURRENCY > 1 (PostgreSQL only): this process migrates once, then runs that many workers sharing the
 * port (node:cluster), replaces a worker that dies, and on SIGTERM/SIGINT lets each drain before exiting 0.
 */
async function supervise(config: Config): Promise<void> {
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  await database.close();
  let stopping = false;
  const fork = () => cluster.fork({ PLINTH_WORKER: '1' });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    process.stderr.write(`plinth: worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    fork();
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  for (let i = 0; i < config.webConcurrency; i++) fork();
}

async function main(): Promise<void> {
  const config = configOrExit();
  if (cluster.isPrimary && config.webConcurrency > 1) await supervise(config);
  else await serve(config, process.env.PLINTH_WORKER !== '1');
}

main().catch((error: unknown) => {
  process.stderr.write(`plinth: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
