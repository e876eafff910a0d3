import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { apiKeysRoutes } from './platform/keys/api-keys.routes.ts';
import { installAuth } from './platform/keys/auth.ts';
import { installIdempotency, startPurge } from './platform/idempotency/idempotency.ts';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from './platform/http/rate-limit.ts';
import { BODY_LIMIT, installJsonBody } from './platform/http/body.ts';
import { ApiError } from './platform/http/errors.ts';
import { installErrorHandling, sendProblem } from './platform/http/problem.ts';
import { installDocs } from './platform/docs/docs.ts';
import { swaggerOptions } from './platform/docs/openapi.ts';
import { installOperations } from './platform/docs/operations.ts';
import { installRequestId, REDACT_PATHS, RequestLogController, requestId } from './platform/http/request-log.ts';
import { systemClock, type Clock } from './platform/kit/time.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import { accountsRoutes } from './products/fintech/accounts.routes.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  /** Rate-limit state; by default in this process, or in Redis when REDIS_URL is set. Closed with the app. */
  limiter?: RateLimiter;
  clock?: Clock;
  /** Where log lines go; stdout when absent. Tests pass a stream to read them. */
  logStream?: DestinationStream;
}

/** Builds the whole HTTP API; never listens (server.ts does, tests do on port 0). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: {
      level: deps.config.logLevel,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    logController: new RequestLogController(),
    requestIdHeader: false, // a client cannot choose our request ids
    genReqId: requestId,
    bodyLimit: BODY_LIMIT,
    trustProxy: deps.config.trustProxy,
    return503OnClosing: false, // answered below, in the contract's error model
    forceCloseConnections: 'idle',
    frameworkErrors: (error, _request, reply) => {
      reply.header('request-id', reply.request.id);
      return sendProblem(reply, new ApiError(error.code === 'FST_ERR_BAD_URL' ? 'route_not_found' : 'body_malformed', 'The request could not be understood.'));
    },
  });
  app.setValidatorCompiler(validatorCompiler);

  installErrorHandling(app);
  installRequestId(app);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) {
      reply.header('connection', 'close');
      throw new ApiError('service_unavailable', 'The server is shutting down; retry.');
    }
  });
  const { config } = deps;
  const limiter = deps.limiter ?? (config.redisUrl ? redisRateLimiter(config.redisUrl, app.log) : memoryRateLimiter());
  app.addHook('onClose', () => limiter.close());
  await limiter.ready();
  installAuth(app, {
    db: deps.database.db,
    clock,
    limiter,
    keyLimits: { live: { rate: config.rateLimitLive, burst: config.rateLimitLive }, sandbox: { rate: config.rateLimitSandbox, burst: config.rateLimitSandbox } },
    authFailureLimit: { rate: config.authFailurePerSecond, burst: config.authFailureBurst },
  });
  installJsonBody(app);
  installIdempotency(app, { db: deps.database.db, clock, lockTimeoutMs: config.idempotencyLockMs });
  const stopPurge = startPurge(deps.database.db, clock, config.idempotencyTtlMs, config.idempotencyPurgeIntervalMs, app.log);
  app.addHook('onClose', async () => stopPurge());
  await app.register(swagger, swaggerOptions());
  installOperations(app, deps.database);
  installDocs(app);

  apiKeysRoutes(app, { db: deps.database.db, clock, limiter, signupLimit: { rate: config.signupPerHour / 3600, burst: config.signupPerHour }, signupEnabled: config.sandboxSignup });
  accountsRoutes(app, { db: deps.database.db, clock, supportedCountries: config.supportedCountries });
  return app;
}
