import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';

/** Start-up only: read config, migrate, build the app, listen; on SIGTERM/SIGINT drain and exit 0. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`plinth: bad configuration: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database });

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
    clearTimeout(force);
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  process.stderr.write(`plinth: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
