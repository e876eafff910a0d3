import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  type Event,
  EventIdParams,
  EventListQuery,
  eventFromRow,
  findEventOrThrow,
  listEvents,
} from '../../modules/events/index.ts';
import { listEventDeliveries } from '../../modules/webhooks/index.ts';
import { ops } from '../../ops.ts';
import { eventTypes } from '../../platform/outbox/types.ts';
import type { Ctx } from '../context.ts';
import { time } from '../format.ts';
import { sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { empty, page, pager, table } from '../layout.ts';
import { deliveriesTable } from './deliveries.ts';

/** The pages of a resource an event is about, where the dashboard has one. */
export function resourceLink(object: { id?: unknown; object?: unknown }): Html {
  const id = typeof object.id === 'string' ? object.id : '';
  const path = (
    {
      'fintech.account': '/dashboard/accounts/',
      'fintech.transfer': '/dashboard/transfers/',
      webhook_endpoint: '/dashboard/webhooks/',
    } as Record<string, string>
  )[String(object.object)];
  if (path !== undefined && id !== '') return html`<a href="${path}${id}"><code>${id}</code></a>`;
  if (object.object === 'fintech.transaction' && typeof (object as { account_id?: unknown }).account_id === 'string')
    return html`<a href="/dashboard/accounts/${(object as { account_id: string }).account_id}"><code>${id}</code></a>`;
  return html`<code>${id}</code>`;
}

export function eventRows(events: Event[], now: Date): Html[] {
  return events.map(
    (e) => html`<tr><td><a href="/dashboard/events/${e.id}"><code>${e.id}</code></a></td><td><code>${e.type}</code></td>
<td class="num">${e.sequence}</td><td>${time(e.created_at, now)}</td></tr>`,
  );
}

/** Events: newest first, filtered by type, paged with the API's cursors; one event with its body and deliveries. */
export function eventsPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const db = ctx.deps.database.db;

  r.get('/events', { schema: { hide: true, querystring: EventListQuery } }, async (request, reply) => {
    const view = await ctx.view(request);
    view.need(ops.listEvents);
    await ctx.deps.caughtUp();
    const query = request.query;
    const list = await listEvents(db, view.principal, query);
    const types = ['', ...eventTypes()].map(
      (t) => html`<option value="${t}"${t === (query.type ?? '') ? html` selected` : ''}>${t || 'All types'}</option>`,
    );
    const main = html`<h1>Events</h1>
<form method="get" action="/dashboard/events" class="filters"><div class="field"><label for="f-type">Type</label>
<select id="f-type" name="type">${types}</select></div><button type="submit">Filter</button></form>
${table('Events', ['Event', 'Type', 'Sequence', 'When'], eventRows(list.data, view.now), empty('No events', query.type ? 'No event of this type yet.' : 'Every change is recorded here as an event, in order.'))}
${pager(
  '/dashboard/events',
  { type: query.type },
  list.data.map((e) => e.id),
  query,
  list.has_more,
)}`;
    return sendHtml(reply, page(view, 'Events', main));
  });

  r.get('/events/:id', { schema: { hide: true, params: EventIdParams } }, async (request, reply) => {
    const view = await ctx.view(request);
    view.need(ops.retrieveEvent);
    view.need(ops.listEventDeliveries);
    await ctx.deps.caughtUp();
    const event = eventFromRow(await findEventOrThrow(db, view.principal, request.params.id));
    const deliveries = await listEventDeliveries(db, view.principal, event.id, { limit: 20 });
    const main = html`<p class="crumbs"><a href="/dashboard/events">Events</a> /</p>
<h1><code>${event.type}</code></h1>
<dl class="facts"><dt>Event</dt><dd><code>${event.id}</code></dd><dt>Sequence</dt><dd>${event.sequence}</dd>
<dt>When</dt><dd>${time(event.created_at, view.now)}</dd>
<dt>About</dt><dd>${resourceLink(event.data.object as { id?: unknown; object?: unknown })}</dd>
<dt>Request</dt><dd>${event.request ? html`<a href="/dashboard/requests/${event.request.id}"><code>${event.request.id}</code></a>${event.request.idempotency_key ? html` · Idempotency-Key <code>${event.request.idempotency_key}</code>` : ''}` : html`<span class="muted">none (the operator, or the server itself)</span>`}</dd></dl>
<h2>Body</h2><pre class="json" tabindex="0" aria-label="Event body"><code>${JSON.stringify(event, null, 2)}</code></pre>
<h2>Deliveries</h2>${deliveriesTable(view, deliveries.data, 'event')}`;
    return sendHtml(reply, page(view, event.type, main));
  });
}
