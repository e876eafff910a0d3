import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { purgeInBatches } from '../db/batched-delete.ts';
import { takeBudgets } from '../platform/auth/auth.ts';
import { ownerNow } from '../platform/clock/clock.ts';
import { ApiError } from '../platform/http/errors.ts';
import { toApiError } from '../platform/http/problem.ts';
import { runEvery } from '../platform/kit/periodic.ts';
import { cutoffBefore } from '../platform/kit/time.ts';
import { accessOf } from './access.ts';
import { actor, reader } from './act.ts';
import { installAssets } from './assets.ts';
import type { Ctx, DashboardDeps } from './context.ts';
import { installForms, submitter } from './forms.ts';
import { errorPage } from './pages/errors.ts';
import { pages } from './pages/index.ts';
import { signInRoutes } from './pages/sign-in.ts';
import { answerOf, recordActions } from './record.ts';
import { deleteSessionsBefore, findOrg } from './sessions.repository.ts';
import { csrfMatches, sameOrigin, sessionCookie, sessionIdOf, sessionStore } from './sessions.ts';

/**
 * Only this origin, nothing inline: the one stylesheet and the one script are files under /dashboard/assets. Forms
 * post only here; no page may be framed.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const SIGN_IN = '/dashboard/sign-in';

function securityHeaders(reply: FastifyReply): void {
  reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('cache-control', 'no-store')
    // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on a form's POST.
    .header('referrer-policy', 'same-origin')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('cross-origin-resource-policy', 'same-origin');
}

/**
 * The web console (docs/dashboard.md#the-dashboard) under /dashboard, in a Fastify scope of its own: its pages answer
 * HTML (errors too), its forms are urlencoded, every request of a session is checked (session, then its key in the
 * API's verifier, then the key's rate limits), and every form that changes something carries the session's CSRF token
 * and comes from this origin. Actions call the API's services through its idempotency step (see act.ts, forms.ts).
 */
export function installDashboard(app: FastifyInstance, deps: DashboardDeps): void {
  if (!deps.config.DASHBOARD) return;
  const { database, clock, config } = deps;
  const hours = config.DASHBOARD_SESSION_HOURS;
  const sessions = sessionStore(database, clock, hours);
  const now = ownerNow(clock);
  const stopPurge = runEvery(3_600_000, 'dashboard sessions purge', app.log, () =>
    purgeInBatches(database, cutoffBefore(clock, hours * 3_600_000), deleteSessionsBefore),
  );
  app.addHook('onClose', async () => stopPurge());

  // The API's declared operations (registered before the dashboard): every action and read runs through them.
  const ctx: Ctx = {
    deps,
    perform: actor(deps.idempotent, app.operations),
    read: reader(app.operations),
    poke: () => app.webhookDelivery.poke(),
    async view(request) {
      const session = request.dashboardSession!;
      const principal = request.principal!;
      const org = await findOrg(database.db, principal.orgId);
      return {
        // The owner's now: a sandbox reads its org's clock (docs/api.md#the-sandbox-clock), so "in 2 days" is its own.
        now: await now(database.db, principal),
        principal,
        orgName: org?.display_name ?? org?.name ?? principal.orgId,
        csrf: session.csrf,
        path: request.url.split('?')[0]!.replace(/\/$/, '') || '/dashboard',
        requestId: String(request.id),
        ...accessOf(app.operations, principal),
      };
    },
    submit: (request, reply, form) => submitter(ctx)(request, reply, form),
  };

  app.register(
    async (scope) => {
      scope.decorateRequest('dashboardSession', null);
      installForms(scope);
      installAssets(scope);
      recordActions(scope);

      scope.addHook('onRequest', async (request, reply) => {
        securityHeaders(reply);
        // A filter left blank (`?type=`, the "any" option of a GET form) means no filter.
        const query = request.query as Record<string, unknown>;
        for (const name of Object.keys(query)) if (query[name] === '') delete query[name];
        if (request.routeOptions.config.dashboardPublic) return;
        const ended = await gate(deps, sessions, request, reply);
        if (ended !== null) {
          reply.header('set-cookie', sessionCookie(request, null));
          return reply.redirect(ended === 'none' ? SIGN_IN : `${SIGN_IN}?ended=${ended}`, 303);
        }
      });

      // Every state-changing request: from a page of this origin, carrying the session's token.
      scope.addHook('preHandler', async (request) => {
        if (request.method !== 'POST') return;
        if (!sameOrigin(request))
          throw new ApiError('permission_denied', 'This form was sent from another site, or without an Origin.');
        const session = request.dashboardSession;
        if (session === null) return; // sign-in: the Origin check alone (there is no session yet)
        const sent = (request.body as URLSearchParams | undefined)?.get('csrf') ?? undefined;
        if (!csrfMatches(session, sent))
          throw new ApiError(
            'permission_denied',
            'This form is out of date (its security token does not match). ' + 'Reload the page and try again.',
          );
      });

      scope.setErrorHandler((error: FastifyError, request, reply) => {
        const apiError = toApiError(error);
        const logged = { status: apiError.status, errorCode: apiError.code, ...answerOf(request, undefined, apiError) };
        request.dashboardAction = { ...request.dashboardAction, ...logged };
        if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
        return errorPage(reply, request, apiError);
      });
      scope.setNotFoundHandler((request, reply) =>
        errorPage(
          reply,
          request,
          new ApiError('route_not_found', `No page ${request.url.split('?')[0]!.slice(0, 200)}.`),
        ),
      );

      signInRoutes(scope, deps, sessions);
      pages(scope, ctx);
    },
    { prefix: '/dashboard' },
  );
}

/**
 * The session of this request, checked: a live row, and its key still active in the API's verifier (trusted for at
 * most a second, so a revocation ends the session within it); then the key's and its org's rate limits, as for an
 * API request. Returns why the session ended, or null when it goes on.
 */
async function gate(
  deps: DashboardDeps,
  sessions: ReturnType<typeof sessionStore>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<'none' | 'expired' | 'revoked' | null> {
  const id = sessionIdOf(request);
  if (id === undefined) return 'none';
  const session = await sessions.find(id);
  if (session === undefined) return 'expired';
  const principal = await deps.keys.verifyId(session.keyId);
  if (principal === null || principal.orgId !== session.orgId || principal.mode !== session.mode) {
    await sessions.end(session.idHash);
    return 'revoked';
  }
  request.dashboardSession = session;
  request.principal = principal;
  deps.auth.usage.record(principal.keyId, Date.now());
  await takeBudgets(deps.auth, principal, reply);
  return null;
}
