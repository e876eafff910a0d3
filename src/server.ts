import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { lockSqliteForServer } from './db/sqlite/sqlite-lock.ts';
import {
  type DeliveryMessage,
  type DeliveryProcesses,
  startDeliveryProcesses,
  throttled,
} from './modules/webhooks/engine/processes.ts';
import type { AttemptReport } from './modules/webhooks/engine/worker.ts';
import { ALL_MIGRATIONS, SEALED_COLUMNS } from './modules.ts';
import { stdoutLog } from './platform/http/log-stream.ts';
import { listenToSupervisor } from './platform/metrics/supervisor.ts';
import { requireSecretsKey } from './platform/secrets/key-check.ts';
import { secretBoxFor } from './platform/secrets/key-source.ts';
import { sayWhereServing, stopWithParent } from './started.ts';
import { exitWithStartFailure, supervise } from './supervisor.ts';

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
  // Before anything is served: a key that cannot open the secrets held here would leave every delivery pending.
  const secrets = secretBoxFor(config);
  await requireSecretsKey(database, secrets, SEALED_COLUMNS, config);
  const log = stdoutLog();
  const supervisor = cluster.isWorker ? listenToSupervisor(process) : undefined;
  const app = await buildApp({ config, database, secrets, logStream: log.stream, logDropped: log.dropped, supervisor });
  logIdleError = (error) => app.log.warn({ err: error }, 'database: an idle connection failed; it will be replaced');

  let deliveries: DeliveryProcesses | undefined;
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    let forced = false;
    const force = setTimeout(() => {
      forced = true;
      // How many connections held the shutdown (none: something else did, such as a delivery process).
      app.server.getConnections((_error, open) => {
        app.log.error(
          { grace_ms: config.SHUTDOWN_GRACE_MS, open_connections: open },
          'grace period over: closing remaining connections',
        );
        app.server.closeAllConnections();
      });
    }, config.SHUTDOWN_GRACE_MS);
    // Whatever still hangs after that (a database that never answers its close), the process ends, with code 1.
    setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS + HARD_STOP_MARGIN_MS).unref();
    // Delivery processes stop claiming at once; their attempts in flight finish (and are recorded) within the same
    // grace period as the requests, and anything left is claimed again after restart when its lease ends.
    await Promise.all([deliveries?.stop(), app.close()]);
    await database.close();
    release();
    clearTimeout(force);
    app.log.info({ forced }, 'stopped');
    await log.flush();
    process.exit(forced ? 1 : 0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  if (!cluster.isWorker) stopWithParent((why) => void stop(why));

  await app.listen({ host: config.HOST, port: config.PORT });
  if (!cluster.isWorker) sayWhereServing(app.server.address(), (text) => process.stderr.write(text));
  // This process does not deliver: delivery processes do, poked after each commit that may have made deliveries.
  if (cluster.isWorker) {
    const poke: DeliveryMessage = { type: 'plinth.webhooks.poke' };
    app.webhookDelivery.relay(throttled(() => process.connected && process.send!(poke, undefined, {}, () => {})));
    process.on('message', (message: DeliveryMessage) => {
      if (message?.type === 'plinth.webhooks.attempts')
        for (const one of message.reports) app.webhookDelivery.heard(one);
    });
  } else {
    const heard = (reports: AttemptReport[]) => {
      for (const report of reports) app.webhookDelivery.heard(report);
    };
    deliveries = startDeliveryProcesses(config.WEBHOOK_WORKERS, heard, (line) => log.stream.write(line));
    app.webhookDelivery.relay(deliveries.poke);
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  if (cluster.isPrimary && config.WEB_CONCURRENCY > 1) await supervise(config);
  else await serve(config, process.env.PLINTH_WORKER !== '1');
}

main().catch((error: unknown) => {
  const reason = error instanceof Error ? error.message : String(error);
  // A worker's supervisor logs why it failed, at most once per 30 s while replacements keep failing.
  if (cluster.isWorker) return exitWithStartFailure(reason);
  if (error instanceof ConfigError) {
    process.stderr.write(`plinth: bad configuration: ${reason}\n`);
    process.exit(2);
  }
  process.stderr.write(`plinth: failed to start: ${reason}\n`);
  process.exit(1);
});
