import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import { installDashboard } from './dashboard/install.ts';
import type { Database } from './db/database.ts';
import { installAuth } from './platform/auth/auth.ts';
import { type KeyUsage, keyUsageRecorder } from './platform/auth/usage.ts';
import { keyVerifier } from './platform/auth/verify.ts';
import { installDocs } from './platform/docs/docs.ts';
import { swaggerOptions } from './platform/docs/openapi.ts';
import { installOperations } from './platform/docs/operations.ts';
import type { EventRecorder } from './platform/events/emit.ts';
import { EVENT_TAGS, installEvents, startEvents } from './platform/events/install.ts';
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
import { apiKeysRoutes } from './platform/keys/api-keys.routes.ts';
import { type Clock, systemClock } from './platform/kit/time.ts';
import { installMetrics } from './platform/metrics/metrics.ts';
import { registerSupervisorMetrics, type SupervisorView } from './platform/metrics/supervisor.ts';
import { registerWebhookMetrics } from './platform/metrics/webhooks.ts';
import { installRequestLog, REQUEST_TAGS } from './platform/requests/install.ts';
import type { SecretBox } from './platform/secrets/box.ts';
import { secretBoxFor } from './platform/secrets/key-source.ts';
import { deleteDeliveriesOf } from './platform/webhooks/deliveries.repository.ts';
import { eventDeliveriesRoutes } from './platform/webhooks/deliveries.routes.ts';
import { fanOut } from './platform/webhooks/fan-out.ts';
import { installWebhooks, WEBHOOK_TAGS } from './platform/webhooks/install.ts';
import { type Resolver, systemResolver } from './platform/webhooks/ssrf.ts';
import { PRODUCTS, registerProducts } from './products.ts';

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
}

/**
 * Builds the whole HTTP API; never listens (server.ts does, tests do on port 0). The pipeline every request
 * passes (request id, errors, auth and rate limits, body parsing, idempotency), then the platform's own routes,
 * then every product of the registry.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  registerProducts(); // the products' error codes and secret shapes, before anything answers or logs
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

  await app.register(
    swagger,
    swaggerOptions([...PRODUCTS.flatMap((p) => p.tags), ...EVENT_TAGS, ...WEBHOOK_TAGS, ...REQUEST_TAGS]),
  );
  const registry = installMetrics(app, database, deps.logDropped ?? stdout?.dropped ?? (() => 0));
  installOperations(app, database, { registry, token: config.METRICS_TOKEN });
  const { events, sequencer } = startEvents(app, { database, clock, registry, afterNumbered: fanOut });
  app.decorate('events', events);
  if (deps.supervisor) registerSupervisorMetrics(registry, deps.supervisor);
  installDocs(app);
  apiKeysRoutes(app, {
    db: database.db,
    write: database.write,
    clock,
    events,
    withIdempotency,
    forgetKey: keys.forget,
    limiter,
    signupLimit: { rate: config.SIGNUP_PER_HOUR / 3600, burst: config.SIGNUP_PER_HOUR },
    signupEnabled: config.SANDBOX_SIGNUP,
    keysPerOrg: config.API_KEYS_PER_ORG,
  });
  const secrets = deps.secrets ?? secretBoxFor(config);
  const resolve = deps.resolve ?? systemResolver;
  installWebhooks(app, { config, database, clock, events, withIdempotency, resolve, secrets });
  const retentionDays = config.EVENT_RETENTION_DAYS;
  const streams = { perOrg: config.EVENT_STREAMS_PER_ORG, maxSeconds: config.EVENT_STREAM_MAX_SECONDS };
  installEvents(app, { database, clock, retentionDays, beforePurge: deleteDeliveriesOf, sequencer, streams });
  // Webhooks' view of an event, listed beside the events' own routes.
  const caughtUp = sequencer.caughtUp;
  eventDeliveriesRoutes(app, { db: database.db, caughtUp });
  registerWebhookMetrics(registry, app.webhookDelivery.metrics);
  for (const product of PRODUCTS) {
    const productDeps = { database, clock, events, settings: config, withIdempotency, secrets };
    product.routes(app, productDeps);
    product.metrics?.(registry, productDeps);
  }
  // After the products, so that the document lists the request log after them (and the generated clients keep
  // naming the shared `created` filter after the first list that had it).
  installRequestLog(app, {
    database,
    clock,
    registry,
    enabled: config.REQUEST_LOG,
    retentionDays: config.REQUEST_LOG_RETENTION_DAYS,
    capacity: config.REQUEST_LOG_BUFFER,
    flushMs: config.REQUEST_LOG_FLUSH_MS,
  });
  // The web console: the same services, checks and idempotency step as the API, in HTML (src/dashboard/).
  installDashboard(app, { config, database, clock, events, auth, keys, idempotent, secrets, resolve, caughtUp });
  return app;
}
