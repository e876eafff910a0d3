import { pino } from 'pino';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import type { DeliveryMessage } from './modules/webhooks/engine/processes.ts';
import { signingSecrets } from './modules/webhooks/engine/signing-secrets.ts';
import type { AttemptReport } from './modules/webhooks/engine/worker.ts';
import { deliveryWorkersFor } from './modules/webhooks/install.ts';
import { registerModules } from './modules.ts';
import { stdoutLog } from './platform/http/log-stream.ts';
import { redactRecord } from './platform/kit/redact.ts';
import { systemClock } from './platform/kit/time.ts';
import { secretBoxFor } from './platform/secrets/key-source.ts';
import { systemResolver } from './platform/ssrf.ts';

/**
 * A delivery process (docs/internals.md, "Emitting an event"), started by the server with an IPC channel: it
 * claims, attempts and records webhook deliveries on a database connection of its own, so that sending webhooks
 * never shares the API's event loop. On SQLite it opens the same file (WAL) with a writer of its own: each round
 * (results and claim, rounds.ts) is one short `BEGIN IMMEDIATE` transaction, and it and the API's writer wait for
 * each other's (busy_timeout) rather than fail; sending the rounds to the API process's writer instead delivered less
 * during a load (bench/FINDINGS.md, "Delivery processes"). It looks when the API pokes it after a commit, and every
 * 500 ms regardless. It ends when its parent does (the IPC channel closes) or on SIGTERM.
 */
async function main(): Promise<void> {
  registerModules(); // every module's secret shapes, so that this process redacts what the API's does
  const config = loadConfig();
  const worker = Number(process.env.PLINTH_DELIVERY_WORKER ?? '1');
  const stream = stdoutLog();
  const log = pino({ level: config.LOG_LEVEL, formatters: { log: redactRecord } }, stream.stream).child({
    delivery_worker: worker,
  });
  // The API server checkpoints the SQLite WAL; a second checkpointer thread here would cost memory for nothing.
  const database = openDatabase(config.DATABASE_URL, { poolSize: 4, onIdleError: () => undefined, checkpoints: false });
  const workers = deliveryWorkersFor(config, {
    database,
    clock: systemClock,
    box: signingSecrets(secretBoxFor(config)),
    log,
    resolve: systemResolver,
    shared: true,
  });
  const send = (message: DeliveryMessage) => process.connected && process.send!(message, undefined, {}, () => {});
  // The attempts of a round are recorded together: they go to the API's /metrics in one message.
  let reports: AttemptReport[] = [];
  workers.metrics.onAttempt((report) => {
    if (reports.length === 0)
      setImmediate(() => {
        send({ type: 'plinth.webhooks.attempts', reports });
        reports = [];
      });
    reports.push(report);
  });
  process.on('message', (message: DeliveryMessage) => {
    if (message?.type === 'plinth.webhooks.poke') workers.poke();
  });

  let stopping = false;
  const stop = async (graceMs: number) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), graceMs + 3000).unref();
    await workers.stop(graceMs);
    await database.close();
    await stream.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop(config.SHUTDOWN_GRACE_MS));
  process.on('SIGINT', () => undefined); // the terminal's ^C reaches the whole group: the parent sends SIGTERM
  // The parent died (or closed the channel): what is claimed here is claimed again when its lease ends.
  process.on('disconnect', () => void stop(0));
  workers.start();
  log.info({ pid: process.pid }, 'delivering webhooks');
  send({ type: 'plinth.webhooks.ready', worker });
}

main().catch((error: unknown) => {
  process.stderr.write(`plinth: delivery process failed: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
