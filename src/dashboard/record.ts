import type { FastifyInstance } from 'fastify';
import type { DashboardAction } from '../platform/requests/install.ts';

/** What a form's round trip learnt about its action, for the request log (set by `submitter` and the error page). */
export type ActionRecord = Partial<Omit<DashboardAction, 'principal'>>;

declare module 'fastify' {
  interface FastifyRequest {
    dashboardAction: ActionRecord | null;
  }
}

/**
 * Every POST of a session (docs/api.md#the-request-log: every dashboard action) goes to the request log once answered,
 * as `source: dashboard`: a form's action with the JSON body the API operation took (redacted by the log, as an API
 * body is), the form's Idempotency-Key, whether it was a replay, and the operation's status (200, or the problem's
 * status and code: the 303 that follows a success is the browser's, not the operation's); sign-out and refused forms
 * (another origin, a forged token) with no body. The form's own fields (its CSRF token) are never kept. Sign-in is not
 * an action of a session (there is none yet) and is not recorded; page views are not actions.
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
