import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { EndpointIdParams, type WebhookEndpoint } from '../../platform/webhooks/endpoints.schema.ts';
import type { Ctx } from '../context.ts';
import { sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import type { FormState, View } from '../view.ts';
import { confirmPage } from './confirm.ts';

/** Asks before deleting: what goes with the endpoint (its delivery log), in the API's words (docs/api.md#webhooks). */
async function deletePage(ctx: Ctx, view: View, id: string, state?: FormState): Promise<Html> {
  const e = await ctx.read<WebhookEndpoint>(view.principal, 'retrieveWebhookEndpoint', { params: { id } });
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
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const params = EndpointIdParams;

  r.get('/webhooks/:id/delete', { schema: { hide: true, params } }, async (request, reply) => {
    const view = await ctx.view(request);
    view.need('deleteWebhookEndpoint');
    return sendHtml(reply, await deletePage(ctx, view, request.params.id));
  });

  r.post('/webhooks/:id/delete', { schema: { hide: true, params } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'delete',
      build: async () => ({ operation: 'deleteWebhookEndpoint', params: { id: request.params.id }, body: {} }),
      done: () => '/dashboard/webhooks?done=deleted',
      again: (view, state) => deletePage(ctx, view, request.params.id, state),
    }),
  );
}
