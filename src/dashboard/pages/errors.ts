import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../../platform/http/errors.ts';
import { sendHtml } from '../forms.ts';
import { html } from '../html.ts';
import { document } from '../layout.ts';

const TITLES: Partial<Record<number, string>> = {
  400: 'That request was not understood',
  403: 'Not allowed',
  404: 'Nothing here',
  429: 'Slow down',
  503: 'Unavailable for a moment',
};

/** Any refusal outside a form (a page that is not there, a bad filter, the rate limit, a stale form): a page. */
export function errorPage(reply: FastifyReply, request: FastifyRequest, error: ApiError): FastifyReply {
  const title = TITLES[error.status] ?? (error.status >= 500 ? 'Something went wrong' : 'Refused');
  const signedIn = request.dashboardSession !== null;
  const main = html`<div class="narrow"><h1>${title}</h1>
<div class="problem" role="alert"><p><strong>${error.message}</strong></p>
<p class="hint"><code>${error.code}</code> · request <code>${String(request.id)}</code></p></div>
<p><a href="${signedIn ? '/dashboard' : '/dashboard/sign-in'}">${signedIn ? 'Back to the dashboard' : 'Sign in'}</a></p></div>`;
  reply.headers(error.headers);
  return sendHtml(reply, document(title, main), error.status);
}
