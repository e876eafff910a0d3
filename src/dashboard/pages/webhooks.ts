import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import type { WebhookEndpoint } from '../../modules/webhooks/index.ts';
import { ops } from '../../ops.ts';
import { ListQuery } from '../../platform/http/pagination.ts';
import { eventTypes } from '../../platform/outbox/types.ts';
import type { Ctx } from '../context.ts';
import { badge, time } from '../format.ts';
import { optional, sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { empty, flash, formFields, input, page, pager, problemSummary, table } from '../layout.ts';
import { detailFor, type FormState, stateOf, type View } from '../view.ts';

/** The events an endpoint receives: everything (`*`), or the types ticked. */
export function eventsField(state: FormState | undefined, current: string[]): Html {
  const chosen = state
    ? new Set(
        Object.entries(state.values)
          .filter(([k]) => k.startsWith('event:'))
          .map(([k]) => k.slice(6)),
      )
    : new Set(current);
  const error = detailFor(state, 'enabled_events');
  const box = (type: string, label: string) =>
    html`<label class="check"><input type="checkbox" name="event:${type}" value="on"${chosen.has(type) ? html` checked` : ''}> ${label}</label>`;
  return html`<fieldset class="field${error ? ' invalid' : ''}"${error ? html` aria-describedby="enabled_events-error"` : ''}><legend>Events to send</legend>
${box('*', 'All events, including types added later')}
<div class="checks">${eventTypes().map((t) => box(t, t))}</div>
${error ? html`<p class="field-error" id="enabled_events-error">${error}</p>` : ''}</fieldset>`;
}

/** The ticked event types, as `enabled_events`. */
export const enabledEvents = (fields: URLSearchParams): string[] =>
  [...fields.keys()].filter((k) => k.startsWith('event:')).map((k) => k.slice(6));

/** A secret shown once, with a copy button (script-enhanced); or why it cannot be shown again. */
export function secretPanel(title: string, secret: string | null, replayedNote: string): Html {
  if (secret === null) return html`<div class="callout"><p><strong>${title}</strong></p><p>${replayedNote}</p></div>`;
  return html`<div class="callout secret" role="status"><p><strong>${title}</strong></p>
<p>Copy it now: it is shown this once and never again.</p>
<div class="secret-row"><code id="secret-value" class="secret-value">${secret}</code>
<button type="button" class="small" data-copy="secret-value" hidden>Copy</button></div></div>`;
}

export function endpointRow(e: WebhookEndpoint, now: Date): Html {
  return html`<tr><td><a href="/dashboard/webhooks/${e.id}">${e.url}</a>${e.description ? html`<br><span class="hint">${e.description}</span>` : ''}</td>
<td>${badge(e.status)}${e.disabled_reason ? html` <span class="hint">${e.disabled_reason}</span>` : ''}</td>
<td>${e.enabled_events.includes('*') ? 'All events' : e.enabled_events.join(', ')}</td><td>${time(e.created_at, now)}</td></tr>`;
}

const EndpointListQuery = Type.Object(
  { ...ListQuery('endpoint', 'we').properties, done: Type.Optional(Type.Literal('deleted')) },
  { additionalProperties: false },
);

/** Webhook endpoints: the list, and the form that creates one (its signing secret shown once). */
export function webhooksPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();

  async function listPage(view: View, query: Static<typeof EndpointListQuery>, state?: FormState): Promise<Html> {
    const { done, ...listQuery } = query;
    const list = await ctx.read(view.principal, ops.listWebhookEndpoints, { query: listQuery });
    const create = stateOf(state, 'create');
    return page(
      view,
      'Webhooks',
      html`<h1>Webhooks</h1>${flash(done === 'deleted' ? 'Endpoint deleted: nothing more is sent to it.' : undefined)}
${table(
  'Webhook endpoints',
  ['Endpoint', 'Status', 'Events', 'Created'],
  list.data.map((e) => endpointRow(e, view.now)),
  empty(
    'No endpoints yet',
    'Add one below: every event you subscribe it to is POSTed to it, signed (Standard Webhooks).',
  ),
)}
${pager(
  '/dashboard/webhooks',
  {},
  list.data.map((e) => e.id),
  listQuery,
  list.has_more,
)}
${
  view.can(ops.createWebhookEndpoint) &&
  html`<section class="card"><h2 id="create-h">Add an endpoint</h2>${problemSummary(create)}
<form method="post" action="/dashboard/webhooks">${formFields(view)}
${input({ name: 'url', label: 'URL', type: 'url', state: create, required: true, hint: view.principal.mode === 'live' ? 'https only, on a public address.' : 'http or https.' })}
${input({ name: 'description', label: 'Description (optional)', state: create })}
${eventsField(create, ['*'])}
<button type="submit" class="primary">Add endpoint</button></form></section>`
}`,
    );
  }

  r.get('/webhooks', { schema: { hide: true, querystring: EndpointListQuery } }, async (request, reply) =>
    sendHtml(reply, await listPage(await ctx.view(request), request.query)),
  );

  r.post('/webhooks', { schema: { hide: true } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'create',
      build: async (fields, _principal) => {
        const body = {
          url: fields.get('url') ?? '',
          enabled_events: enabledEvents(fields),
          ...(optional(fields, 'description') === undefined ? {} : { description: fields.get('description') }),
        };
        return { operation: ops.createWebhookEndpoint, body };
      },
      done: ({ value }, view) =>
        page(
          view,
          'Endpoint added',
          html`<h1>Endpoint added</h1>
${secretPanel('Signing secret', value.secret, 'This form was sent twice: the endpoint was added the first time, and its secret was shown then. Rotate the secret on the endpoint’s page to get a new one.')}
<p><a class="button" href="/dashboard/webhooks/${value.id}">Go to the endpoint</a></p>`,
        ),
      again: (view, state) => listPage(view, {}, state),
    }),
  );
}
