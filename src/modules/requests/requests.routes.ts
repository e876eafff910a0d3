import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Db } from '../../db/database.ts';
import { needs } from '../../platform/auth/permissions.ts';
import { answerShowsRequestLog } from '../../platform/http/durable-answers.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';
import { RequestLog, RequestLogIdParams, RequestLogList, RequestLogListQuery } from './requests.schema.ts';
import { listRequestLogs, retrieveRequestLog } from './requests.service.ts';

type List<T> = { object: 'list'; data: T[]; has_more: boolean };

const WHEN =
  'An entry is written a few hundred milliseconds after its answer (the log is written in batches, off the ' +
  'request’s path), so a request appears here shortly after it was answered, not at once.';

/** The request log's operations, declared at module scope (src/ops.ts). */
export const requestOps = {
  listRequests: declareRead({
    method: 'GET',
    path: '/v1/requests',
    permission: needs('requests', 'read'),
    schema: {
      operationId: 'listRequests',
      'x-plinth-sdk': { resource: 'requests', method: 'list' },
      tags: ['Requests'],
      summary: 'List recorded requests, newest first',
      description:
        `Every authenticated request to \`/v1\` and every dashboard action of this key’s organisation and mode, ` +
        `newest first in the order they were recorded. Filters combine; all must hold. ${WHEN} Kept ` +
        '`REQUEST_LOG_RETENTION_DAYS` (7).',
      querystring: RequestLogListQuery,
      response: { 200: Ref<List<RequestLog>>('RequestLogList') },
    },
  }),
  retrieveRequest: declareRead({
    method: 'GET',
    path: '/v1/requests/:id',
    permission: needs('requests', 'read'),
    schema: {
      operationId: 'retrieveRequest',
      'x-plinth-sdk': { resource: 'requests', method: 'retrieve' },
      tags: ['Requests'],
      summary: 'Retrieve a recorded request',
      description: `By the \`Request-Id\` its answer carried. ${WHEN}`,
      params: RequestLogIdParams,
      response: { 200: Ref<RequestLog>('RequestLog') },
    },
  }),
};

/** The request log (docs/api.md#the-request-log): list, newest first, and retrieve by request id. */
export function requestsRoutes(app: FastifyInstance, deps: { db: Db }): void {
  // Their answers show entries: they wait for the sync of the log's own batches too, which other answers do not.
  const showsEntries = async (request: FastifyRequest) => answerShowsRequestLog(request);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/requests')) return;
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [...own, showsEntries] as onRequestHookHandler[];
  });
  app.addSchema(RequestLog);
  app.addSchema(RequestLogList);
  declareOperations(app, {}, [
    implement(requestOps.listRequests, {
      read: (owner, input) => listRequestLogs(deps.db, app.operations, owner, input.query),
    }),

    implement(requestOps.retrieveRequest, {
      read: (owner, input) => retrieveRequestLog(deps.db, app.operations, owner, input.params.id),
    }),
  ]);
}
