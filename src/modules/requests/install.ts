import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { purgeInBatches } from '../../db/batched-delete.ts';
import type { Database, Trx } from '../../db/database.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { routeOf } from '../../platform/http/route-of.ts';
import { runEvery } from '../../platform/kit/periodic.ts';
import { type Clock, cutoffBefore } from '../../platform/kit/time.ts';
import { type EntryDetails, entryOf, keepsAnswer } from './entry.ts';
import { type RequestRecorder, requestRecorder } from './recorder.ts';
import { isRefusal, refusalCounter } from './refusals.ts';
import { deleteRequestLogsBefore } from './requests.repository.ts';
import { requestsRoutes } from './requests.routes.ts';

/** What the dashboard says about one of its actions; the rest comes from the request (see `entryOf`). */
export type DashboardAction = Omit<EntryDetails, 'source'>;

export interface RequestLog {
  /**
   * Records a dashboard action (`source: dashboard`), acting for `principal`, once it has been answered: its route,
   * path, duration and request id come from `request`; status and error code from `reply` unless given (an action
   * that redirects after the service refused it gives the problem's status and code). `body` is the form as the
   * service received it (a POST's), redacted like an API body. Never throws, never waits.
   */
  recordDashboardAction(request: FastifyRequest, reply: FastifyReply, action: DashboardAction): void;
  /** Writes every entry recorded so far (tests). */
  flush(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The request log (docs/api.md#the-request-log): /v1 requests are recorded by a hook; the dashboard records its
     * actions here.
     */
    requestLog: RequestLog;
  }
}

/** The OpenAPI tag of the request log. */

const PURGE_INTERVAL_MS = 3_600_000;

export interface RequestLogDeps {
  database: Database;
  clock: Clock;
  registry: Registry;
  /** REQUEST_LOG: off records nothing (the API still answers, with what was recorded before). */
  enabled: boolean;
  retentionDays: number;
  capacity: number;
  flushMs: number;
}

const isV1 = (url: string | undefined) => url?.startsWith('/v1/') === true;
const isLog = (url: string | undefined) => url?.startsWith('/v1/requests') === true;
const isJson = (reply: FastifyReply) => String(reply.getHeader('content-type') ?? '').includes('json');

/**
 * The request log: its routes, the recorder every authenticated /v1 request goes to once answered (an `onResponse`
 * hook: after the answer has been sent, so it adds nothing to the request's latency), flushed when the app closes,
 * and the retention purge.
 */
export function installRequestLog(app: FastifyInstance, deps: RequestLogDeps): void {
  const { database, clock } = deps;
  app.decorateRequest('answered', null);
  const log = deps.enabled ? startRecorder(app, deps) : null;
  app.decorate('requestLog', {
    recordDashboardAction(request, reply, action) {
      log?.record(request, reply, { ...action, source: 'dashboard' });
    },
    flush: () => log?.flush() ?? Promise.resolve(),
  } satisfies RequestLog);
  const stopPurge = startRequestLogPurge(database, clock, deps.retentionDays * 86_400_000, app.log);
  app.addHook('onClose', async () => stopPurge());
  requestsRoutes(app, { db: database.db });
}

/**
 * The recorder, fed by an `onResponse` hook for /v1 (with the answer an `onSend` hook kept) and by the dashboard. A
 * request its rate limit refused is counted in its key's summary for the second (refusals.ts), not recorded on its
 * own.
 */
function startRecorder(app: FastifyInstance, deps: RequestLogDeps) {
  const { database, registry, capacity, flushMs } = deps;
  const recorder: RequestRecorder = requestRecorder({ database, log: app.log, registry, capacity, flushMs });
  const refusals = refusalCounter((entry) => recorder.record(entry));
  const record = (request: FastifyRequest, reply: FastifyReply, details: EntryDetails) => {
    const code = details.errorCode === undefined ? request.errorCode : details.errorCode;
    if (!isRefusal(details.status ?? reply.statusCode, code)) recorder.record(entryOf(request, reply, details));
    else refusals.count(`${details.source}:${details.principal.keyId}`, () => entryOf(request, reply, details));
  };
  // The answer's JSON text, kept by reference until the entry is made (answer.ts redacts and cuts it), when the entry
  // keeps it: not a successful read's (entry.ts), nor the log's own (an answer of /v1/requests is entries already
  // kept, and would only be parsed again to be cut).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' || !keepsAnswer(request.method, reply.statusCode) || request.principal === null)
      return done(null, payload);
    const url = routeOf(request).url;
    if (isV1(url) && !isLog(url) && isJson(reply)) request.answered = payload;
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const principal: Principal | null = request.principal;
    if (principal === null) return done();
    const url = routeOf(request).url;
    if (isV1(url)) record(request, reply, { source: 'api', principal, routeUrl: url });
    done();
  });
  // Every request has been answered (and recorded) before the app's onClose hooks run; the database closes after.
  app.addHook('onClose', () => {
    refusals.stop();
    return recorder.stop();
  });
  const flush = () => {
    refusals.release();
    return recorder.flush();
  };
  return { record, flush };
}

/** Retention: deletes entries older than `retentionMs` (see db/batched-delete.ts). */
export function purgeRequestLogs(database: Database, clock: Clock, retentionMs: number, batch = 500, maxBatches = 100) {
  const deleteBatch = (trx: Trx, cutoff: string, limit: number) => deleteRequestLogsBefore(trx, cutoff, limit);
  return purgeInBatches(database, cutoffBefore(clock, retentionMs), deleteBatch, batch, maxBatches);
}

function startRequestLogPurge(database: Database, clock: Clock, retentionMs: number, log: FastifyBaseLogger) {
  return runEvery(PURGE_INTERVAL_MS, 'request log purge', log, () => purgeRequestLogs(database, clock, retentionMs));
}
