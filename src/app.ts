import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { startEvents } from './modules/events/install.ts';
import { AFTER_NUMBERED, MODULES, registerModules } from './modules.ts';
import { installAuth } from './platform/auth/auth.ts';
import { type KeyUsage, keyUsageRecorder } from './platform/auth/usage.ts';
import { keyVerifier } from './platform/auth/verify.ts';
import { ownerNow } from './platform/clock/clock.ts';
import type { DueSource } from './platform/clock/due.ts';
import { installDocs } from './platform/docs/docs.ts';
import { swaggerOptions } from './platform/docs/openapi.ts';
import { installOperations } from './platform/docs/operations.ts';
import { installRequestId } from './platform/http/access-log.ts';
import { installJsonBody } from './platform/http/body.ts';
import { refuseWhileClosing } from './platform/http/closing.ts';
import { installDurableAnswers } from './platform/http/durable-answers.ts';
import { createFastify } from './platform/http/fastify.ts';
import { installHttpRefusals } from './platform/http/http-refusals.ts';
import { stdoutLog } from './platform/http/log-stream.ts';
import { installErrorHandling } from './platform/http/problem.ts';
import { installStrictQuery } from './platform/http/query.ts';
import { memoryRateLimiter, type RateLimiter, redisRateLimiter } from './platform/http/rate-limit.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import { idempotencyStep, idempotentWrite } from './platform/idempotency/idempotency.ts';
import { startPurge } from './platform/idempotency/purge.ts';
import { runEvery } from './platform/kit/periodic.ts';
import { type Clock, systemClock } from './platform/kit/time.ts';
import { installMetrics } from './platform/metrics/metrics.ts';
import { registerSupervisorMetrics, type SupervisorView } from './platform/metrics/supervisor.ts';
import type { Host, Module } from './platform/module.ts';
import type { EventRecorder } from './platform/outbox/emit.ts';
import type { SecretBox } from './platform/secrets/box.ts';
import { secretBoxFor } from './platform/secrets/key-source.ts';
import { type Resolver, systemResolver } from './platform/ssrf.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** When keys were last used, written in batches (tests flush it). */
    keyUsage: KeyUsage;
    /** The event recorder every service writes with (tests and background work call services directly). */
    events: EventRecorder;
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  /** Rate-limit state; by default in this process, or in Redis when REDIS_URL is set. Closed with the app. */
  limiter?: RateLimiter;
  clock?: Clock;
  /** Seals secrets at rest; by default from SECRETS_KEY (or the SQLite key file, see platform/secrets). */
  secrets?: SecretBox;
  /** Where log lines go; stdout when absent. Tests pass a stream to read them. */
  logStream?: DestinationStream;
  /** Lines the log stream could not write (shown on /metrics); known by itself when the app writes to stdout. */
  logDropped?: () => number;
  /** Name resolution for webhook targets' SSRF checks; tests inject one. */
  resolve?: Resolver;
  /** In a WEB_CONCURRENCY worker: what its supervisor reports, shown on /metrics. */
  supervisor?: SupervisorView;
  /**
   * The modules to build from: src/modules.ts's list, always, in every process. A test composes one more module
   * (test/operations-adding.test.ts); what the registry assembles (error codes, event types) stays MODULES'.
   */
  modules?: readonly Module[];
}

/**
 * Builds the whole HTTP API from the list of modules (src/modules.ts); never listens (server.ts does, tests do on port
 * 0). The pipeline every request passes (request id, errors, auth and rate limits, body parsing, idempotency), then
 * the host every module is handed (docs/architecture.md, "Modules"), then each module's routes, jobs and metrics, in
 * the list's order.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  registerModules(); // the modules' error codes, secret shapes and event types, before anything answers or logs
  const clock = deps.clock ?? systemClock;
  const stdout = deps.logStream === undefined ? stdoutLog() : undefined;
  const app = createFastify(config, deps.logStream ?? stdout!.stream);
  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app);
  installRequestId(app);
  installHttpRefusals(app);
  refuseWhileClosing(app);
  installDurableAnswers(app, database);

  const limiter =
    deps.limiter ??
    (config.REDIS_URL
      ? await redisRateLimiter(config.REDIS_URL, app.log, config.REDIS_TIMEOUT_MS)
      : memoryRateLimiter());
  app.addHook('onClose', () => limiter.close());
  await limiter.ready();
  const perKey = (rate: number) => ({ rate, burst: rate });
  const keys = keyVerifier(database.db);
  const usage = keyUsageRecorder(database, app.log);
  app.decorate('keyUsage', usage);
  app.addHook('onClose', () => usage.stop());
  const auth = {
    verify: keys.verify,
    known: keys.known,
    limiter,
    keyLimits: { live: perKey(config.RATE_LIMIT_LIVE), sandbox: perKey(config.RATE_LIMIT_SANDBOX) },
    authFailureLimit: { rate: config.AUTH_FAILURE_PER_SECOND, burst: config.AUTH_FAILURE_BURST },
    orgMultiple: config.RATE_LIMIT_ORG_MULTIPLE,
    usage,
  };
  installAuth(app, auth);
  installJsonBody(app);
  installStrictQuery(app);
  const idempotent = idempotentWrite({ database, clock });
  const withIdempotency = idempotencyStep(idempotent);
  const ttlMs = config.IDEMPOTENCY_TTL_HOURS * 3_600_000;
  const stopPurge = startPurge(database, clock, ttlMs, config.IDEMPOTENCY_PURGE_INTERVAL_SECONDS * 1000, app.log);
  app.addHook('onClose', async () => stopPurge());

  const modules = deps.modules ?? (MODULES as readonly Module[]);
  await app.register(swagger, swaggerOptions(modules.flatMap((m) => m.tags ?? [])));
  const registry = installMetrics(app, database, deps.logDropped ?? stdout?.dropped ?? (() => 0));
  installOperations(app, database, { registry, token: config.METRICS_TOKEN });
  const { events, sequencer } = startEvents(app, { database, clock, registry, afterNumbered: AFTER_NUMBERED });
  app.decorate('events', events);
  if (deps.supervisor) registerSupervisorMetrics(registry, deps.supervisor);
  installDocs(app);

  const due: DueSource[] = [];
  const host: Host<Config> = {
    database,
    clock,
    now: ownerNow(clock),
    due,
    // As EVENT_CHECKS is of MODULES (what `cli audit verify` runs), of the modules this app is built from.
    eventChecks: modules.flatMap((m) => m.eventChecks ?? []),
    log: app.log,
    settings: config,
    // Every module's settings are parsed into the one Config: another module's are a view of the same object.
    settingsOf: (() => config) as Host['settingsOf'],
    platform: config,
    events,
    sequencer,
    withIdempotency,
    idempotent,
    secrets: deps.secrets ?? secretBoxFor(config),
    registry,
    limiter,
    auth,
    keys,
    resolve: deps.resolve ?? systemResolver,
  };
  for (const module of modules) due.push(...(module.due?.(host) ?? []));
  for (const module of modules) {
    await module.install?.(app, host);
    for (const job of module.jobs?.(host) ?? []) {
      const stop = runEvery(job.everyMs, job.what, app.log, job.pass);
      app.addHook('onClose', stop);
    }
    module.metrics?.(registry, host);
  }
  return app;
}
