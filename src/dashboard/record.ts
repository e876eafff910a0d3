import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DashboardAction } from '../modules/requests/index.ts';
import { templateOf } from '../modules/requests/index.ts';
import { ApiError, toProblem } from '../platform/http/errors.ts';
import { type Action, operationOf, pathOf } from './act.ts';

/** What a form's round trip learnt about its action, for the request log (set by `submitter` and the error page). */
export type ActionRecord = Partial<Omit<DashboardAction, 'principal'>>;

declare module 'fastify' {
  interface FastifyRequest {
    dashboardAction: ActionRecord | null;
  }
}

/**
 * What the log keeps of an action's answer: the API operation it stands for (`POST /v1/fintech/transfers`, not the
 * form's path), when the form got as far as naming one, and that operation's answer: its result, or the problem.
 */
export function answerOf(request: FastifyRequest, action: Action | undefined, answer: unknown): ActionRecord {
  const response = answer instanceof ApiError ? toProblem(answer, String(request.id)) : answer;
  if (action === undefined) return { response };
  const op = operationOf(request.server.operations, action.operation);
  return {
    response,
    operation: { method: op.method, route: templateOf(op.path), path: pathOf(op.path, action.params) },
  };
}

/**
 * Every POST of a session (docs/api.md#the-request-log: every dashboard action) goes to the request log once answered,
 * as `source: dashboard`: a form's action under the API operation it stands for (its method, route and path), with
 * the JSON body the operation took and its answer (both redacted by the log, as an API request's are), the form's
 * Idempotency-Key, whether it was a replay, and the operation's status (200, or the problem's status, code, detail
 * and param: the 303 that follows a success is the browser's, not the operation's); sign-out and refused forms
 * (another origin, a forged token) under the form's own path, with no body. The form's own fields (its CSRF token) are
 * never kept. Sign-in is not an action of a session (there is none yet) and is not recorded; page views are not
 * actions.
 */
export function recordActions(scope: FastifyInstance): void {
  scope.decorateRequest('dashboardAction', null);
  scope.addHook('onResponse', async (request, reply) => {
    const principal = request.principal;
    if (request.method !== 'POST' || principal === null) return;
    const action = { body: null, idempotencyKey: null, ...request.dashboardAction, principal };
    request.server.requestLog.recordDashboardAction(request, reply, action);
  });
}
