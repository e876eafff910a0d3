import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { takeAuthFailure, takeBudgets } from '../../platform/auth/auth.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { StringEnum } from '../../platform/kit/schema.ts';
import type { DashboardDeps } from '../context.ts';
import { fieldsOf, sendHtml } from '../forms.ts';
import { html } from '../html.ts';
import { document, flash } from '../layout.ts';
import { type SessionStore, sessionCookie } from '../sessions.ts';

const ENDED = {
  expired: 'Your session has ended. Sign in again.',
  revoked: 'The API key this session used has been revoked. Sign in with another key.',
  'signed-out': 'You are signed out.',
} as const;

const SignInQuery = Type.Object(
  { ended: Type.Optional(StringEnum(Object.keys(ENDED) as (keyof typeof ENDED)[])) },
  { additionalProperties: false },
);

function signInPage(message: string | undefined, error: ApiError | undefined, requestId: string) {
  const detail = error?.message;
  return document(
    'Sign in',
    html`<div class="narrow sign-in"><p class="brand-big">Plinth</p><h1>Sign in to the dashboard</h1>
${flash(message)}
${error ? html`<div class="problem" role="alert"><p><strong>${detail}</strong></p><p class="hint"><code>${error.code}</code> · request <code>${requestId}</code></p></div>` : ''}
<form method="post" action="/dashboard/sign-in" class="card">
<div class="field${error ? ' invalid' : ''}"><label for="f-key">API key</label>
<input id="f-key" name="key" type="password" autocomplete="off" spellcheck="false" required aria-describedby="key-hint${error ? ' key-error' : ''}"${error ? html` aria-invalid="true"` : ''}>
<p class="hint" id="key-hint"><code>sk_test_…</code> or <code>rk_test_…</code> for the sandbox, <code>sk_live_…</code> or <code>rk_live_…</code> for live data; a restricted key (<code>rk_…</code>) shows only what it may read. The key is checked, then forgotten: the session remembers only which key it was, and ends when that key is revoked.</p>
${error ? html`<p class="field-error" id="key-error">${detail}</p>` : ''}</div>
<button type="submit" class="primary">Sign in</button></form>
<p class="hint">No key yet? The operator mints one with <code>npm run --silent cli -- keys create --org acme --mode sandbox</code>, or anyone can sign up for a sandbox with <code>POST /v1/sandbox/signup</code>.</p></div>`,
  );
}

/**
 * Sign-in and sign-out (docs/dashboard.md#sessions). The pasted key goes through the API's own verifier; a failure
 * takes from the client address's failed-authentication budget, the same buckets an API request with a bad key takes
 * from. A success opens a session, sets its cookie, and keeps nothing of the key.
 */
export function signInRoutes(scope: FastifyInstance, deps: DashboardDeps, sessions: SessionStore): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const publicPage = { config: { dashboardPublic: true }, schema: { hide: true } } as const;

  r.get('/sign-in', { ...publicPage, schema: { hide: true, querystring: SignInQuery } }, async (request, reply) => {
    const ended = request.query.ended;
    return sendHtml(reply, signInPage(ended === undefined ? undefined : ENDED[ended], undefined, String(request.id)));
  });

  r.post('/sign-in', publicPage, async (request: FastifyRequest, reply: FastifyReply) => {
    const presented = (fieldsOf(request).get('key') ?? '').trim();
    const principal = presented === '' ? null : await deps.auth.verify(presented);
    if (principal === null) {
      await takeAuthFailure(deps.auth, request.ip);
      const error = new ApiError(
        presented === '' ? 'api_key_missing' : 'api_key_invalid',
        presented === '' ? 'Paste an API key.' : 'The API key is not valid: unknown, revoked, or mistyped.',
        { param: 'key' },
      );
      return sendHtml(reply, signInPage(undefined, error, String(request.id)), 401);
    }
    await takeBudgets(deps.auth, principal, reply);
    const { id, maxAgeSeconds } = await sessions.open(principal);
    reply.header('set-cookie', sessionCookie(request, id, maxAgeSeconds));
    return reply.redirect('/dashboard', 303);
  });

  r.post('/sign-out', { schema: { hide: true } }, async (request, reply) => {
    await sessions.end(request.dashboardSession!.idHash);
    reply.header('set-cookie', sessionCookie(request, null));
    return reply.redirect('/dashboard/sign-in?ended=signed-out', 303);
  });
}
