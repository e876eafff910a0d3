import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { DeliveryIdParams, EndpointDeliveriesQuery, EndpointIdParams } from '../../modules/webhooks/index.ts';
import { ops } from '../../ops.ts';
import type { Ctx } from '../context.ts';
import { badge, time } from '../format.ts';
import { fieldsOf, optional, sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { flash, formFields, input, metadataList, page, pager, problemSummary, select } from '../layout.ts';
import { type FormState, stateOf, type View } from '../view.ts';
import { deliveriesTable } from './deliveries.ts';
import { enabledEvents, eventsField, secretPanel } from './webhooks.ts';

const DONE = {
  updated: 'Endpoint saved.',
  enabled: 'Endpoint enabled: deliveries resume.',
  disabled: 'Endpoint disabled: nothing is sent to it until it is enabled.',
  tested: 'Test event sent: its delivery is below.',
  retried: 'Retry queued: the attempt shows below in a moment.',
} as const;
const PageQuery = Type.Object(
  {
    ...EndpointDeliveriesQuery.properties,
    done: Type.Optional(Type.Union(Object.keys(DONE).map((k) => Type.Literal(k as keyof typeof DONE)))),
  },
  { additionalProperties: false },
);
type PageQuery = Static<typeof PageQuery>;
const _NoBody = Type.Object({}, { additionalProperties: false });
const ROTATE_OVERLAP: [string, string][] = [
  ['0', 'Stop signing with the old secret now'],
  ['3600', 'Keep the old secret for an hour'],
  ['86400', 'Keep the old secret for a day'],
  ['604800', 'Keep the old secret for a week'],
];

/** One endpoint: its settings, enable/disable, rotate, test, delete (webhook-delete.ts), and its deliveries (filtered by status, paged). */
export async function endpointPage(
  ctx: Ctx,
  view: View,
  id: string,
  query: PageQuery,
  state?: FormState,
): Promise<Html> {
  const e = await ctx.read(view.principal, ops.retrieveWebhookEndpoint, { params: { id } });
  const { done, ...listQuery } = query;
  const deliveries = await ctx.read(view.principal, ops.listWebhookEndpointDeliveries, {
    params: { id: e.id },
    query: listQuery,
  });
  const edit = stateOf(state, 'update');
  const statuses = ['', 'pending', 'succeeded', 'failed'].map(
    (s) => html`<option value="${s}"${s === (query.status ?? '') ? html` selected` : ''}>${s || 'Any status'}</option>`,
  );
  const enabled = e.status === 'enabled';
  const base = `/dashboard/webhooks/${e.id}`;
  return page(
    view,
    e.url,
    html`<p class="crumbs"><a href="/dashboard/webhooks">Webhooks</a> /</p><h1 class="break">${e.url}</h1>
${flash(done === undefined ? undefined : DONE[done])}${state && state.form !== 'update' ? problemSummary(state) : ''}
<dl class="facts"><dt>Endpoint</dt><dd><code>${e.id}</code></dd><dt>Status</dt><dd>${badge(e.status)}${e.disabled_reason ? html` <span class="hint">${e.disabled_reason}</span>` : ''}</dd>
<dt>Created</dt><dd>${time(e.created_at, view.now)}</dd><dt>Metadata</dt><dd>${metadataList(e.metadata)}</dd></dl>
${
  view.can(ops.updateWebhookEndpoint) &&
  html`<div class="actions">
<form method="post" action="${base}/status">${formFields(view)}<input type="hidden" name="status" value="${enabled ? 'disabled' : 'enabled'}">
<button type="submit"${enabled ? html` class="danger" data-confirm="Disable this endpoint? Its pending deliveries fail."` : ''}>${enabled ? 'Disable' : 'Enable'}</button></form>
${view.can(ops.testWebhookEndpoint) && html`<form method="post" action="${base}/test">${formFields(view)}<button type="submit">Send a test event</button></form>`}
${view.can(ops.deleteWebhookEndpoint) && html`<a class="button danger" href="${base}/delete">Delete…</a>`}
</div>`
}
<section><h2 id="deliveries-h">Deliveries</h2>
<form method="get" action="${base}" class="filters"><div class="field"><label for="f-status">Status</label><select id="f-status" name="status">${statuses}</select></div><button type="submit">Filter</button></form>
${deliveriesTable(view, deliveries.data, 'endpoint')}
${pager(
  base,
  { status: query.status },
  deliveries.data.map((d) => d.id),
  listQuery,
  deliveries.has_more,
)}</section>
${
  view.can(ops.updateWebhookEndpoint) &&
  html`<section class="card"><h2 id="edit-h">Settings</h2>${problemSummary(edit)}
<form method="post" action="${base}">${formFields(view)}
${input({ name: 'url', label: 'URL', type: 'url', state: edit, value: e.url, required: true })}
${input({ name: 'description', label: 'Description', state: edit, value: e.description ?? '' })}
${eventsField(edit, e.enabled_events)}<button type="submit" class="primary">Save</button></form></section>
`
}
${
  view.can(ops.rotateWebhookEndpointSecret) &&
  html`<section class="card"><h2 id="rotate-h">Signing secret</h2>
<form method="post" action="${base}/rotate">${formFields(view)}
${select({ name: 'expire_previous_in_seconds', label: 'The old secret', state: stateOf(state, 'rotate'), value: '86400', options: ROTATE_OVERLAP })}
<button type="submit" data-confirm="Rotate the signing secret?">Rotate secret</button></form></section>`
}`,
  );
}

export function webhookPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const params = EndpointIdParams;
  deliveryActions(scope, ctx);

  r.get('/webhooks/:id', { schema: { hide: true, params, querystring: PageQuery } }, async (request, reply) =>
    sendHtml(reply, await endpointPage(ctx, await ctx.view(request), request.params.id, request.query)),
  );

  /** An update through the API's service: the settings form, or the status button. */
  const update = (
    name: string,
    body: (fields: URLSearchParams) => Record<string, unknown>,
    done: keyof typeof DONE | 'status',
  ) =>
    r.post(`/webhooks/:id${name === 'update' ? '' : '/status'}`, { schema: { hide: true, params } }, (request, reply) =>
      ctx.submit(request, reply, {
        name,
        build: async (fields) => ({
          operation: ops.updateWebhookEndpoint,
          params: { id: request.params.id },
          body: body(fields),
        }),
        done: ({ value }) => `/dashboard/webhooks/${value.id}?done=${done === 'status' ? value.status : done}`,
        again: (view, state) => endpointPage(ctx, view, request.params.id, {}, state),
      }),
    );
  update(
    'update',
    (fields) => ({
      url: fields.get('url') ?? '',
      enabled_events: enabledEvents(fields),
      description: optional(fields, 'description') === undefined ? null : fields.get('description'),
    }),
    'updated',
  );
  update('status', (fields) => ({ status: fields.get('status') ?? '' }), 'status');

  r.post('/webhooks/:id/rotate', { schema: { hide: true, params } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'rotate',
      build: async (fields) => {
        const seconds = fields.get('expire_previous_in_seconds');
        const body =
          seconds === null || !/^\d{1,7}$/.test(seconds) ? {} : { expire_previous_in_seconds: Number(seconds) };
        return { operation: ops.rotateWebhookEndpointSecret, params: { id: request.params.id }, body };
      },
      done: ({ value }, view) =>
        page(
          view,
          'Secret rotated',
          html`<h1>Secret rotated</h1>${secretPanel('New signing secret', value.secret, 'This form was sent twice: the secret was rotated the first time and shown then. Rotate again to get a new one.')}
<p><a class="button" href="/dashboard/webhooks/${value.id}">Back to the endpoint</a></p>`,
        ),
      again: (view, state) => endpointPage(ctx, view, request.params.id, {}, state),
    }),
  );

  r.post('/webhooks/:id/test', { schema: { hide: true, params } }, (request, reply) =>
    ctx
      .submit(request, reply, {
        name: 'test',
        build: async () => ({ operation: ops.testWebhookEndpoint, params: { id: request.params.id }, body: {} }),
        done: () => `/dashboard/webhooks/${request.params.id}?done=tested`,
        again: (view, state) => endpointPage(ctx, view, request.params.id, {}, state),
      })
      .finally(ctx.poke),
  );
}

/**
 * Retry (docs/api.md#how-delivery-works), the button of every delivery table (the endpoint's page and the event's): one
 * attempt now, through the API's service; back to the endpoint's page, whose action it is.
 */
function deliveryActions(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  r.post('/deliveries/:id/retry', { schema: { hide: true, params: DeliveryIdParams } }, (request, reply) =>
    // The operation wakes the delivery workers once the retry is written, as the API's does.
    ctx.submit(request, reply, {
      name: `retry:${request.params.id}`,
      build: async () => ({ operation: ops.retryWebhookDelivery, params: { id: request.params.id }, body: {} }),
      done: ({ value }) => `/dashboard/webhooks/${value.endpoint_id}?done=retried`,
      again: (view, state) => endpointPage(ctx, view, fieldsOf(request).get('endpoint_id') ?? '', {}, state),
    }),
  );
}
