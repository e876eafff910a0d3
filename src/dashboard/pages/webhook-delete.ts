import type { FastifyInstance } from 'fastify';
import { EndpointIdParams } from '../../modules/webhooks/index.ts';
import { ops } from '../../ops.ts';
import type { Ctx } from '../context.ts';
import { type Html, html } from '../html.ts';
import type { FormState, View } from '../view.ts';
import { confirmedAction, confirmPage } from './confirm.ts';

/** Asks before deleting: what goes with the endpoint (its delivery log), in the API's words (docs/api.md#webhooks). */
async function deletePage(ctx: Ctx, view: View, id: string, state?: FormState): Promise<Html> {
  const e = await ctx.read(view.principal, ops.retrieveWebhookEndpoint, { params: { id } });
  return confirmPage(
    view,
    {
      title: 'Delete this endpoint?',
      text: html`<p class="break"><code>${e.id}</code> · ${e.url}</p>
<p>Deleting it removes the endpoint and its delivery log; nothing more is sent to it. This cannot be undone.</p>`,
      action: `/dashboard/webhooks/${e.id}/delete`,
      button: 'Delete endpoint',
      back: `/dashboard/webhooks/${e.id}`,
    },
    state,
  );
}

/** Deleting a webhook endpoint: a confirmation page, then the API's `deleteWebhookEndpoint` as the session. */
export function webhookDeletePages(scope: FastifyInstance, ctx: Ctx): void {
  confirmedAction(scope, ctx, {
    path: '/webhooks/:id/delete',
    params: EndpointIdParams,
    operation: ops.deleteWebhookEndpoint,
    name: 'delete',
    question: (view, id, state) => deletePage(ctx, view, id, state),
    done: '/dashboard/webhooks?done=deleted',
  });
}
