import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  listRequestLogs,
  METHODS,
  type RequestLog,
  RequestLogIdParams,
  RequestLogListQuery,
  retrieveRequestLog,
  STATUS_FILTER_PATTERN,
} from '../../modules/requests/index.ts';
import { ops } from '../../ops.ts';
import { answerShowsRequestLog } from '../../platform/http/durable-answers.ts';
import { timeOfId } from '../../platform/kit/ids.ts';
import type { Operations } from '../../platform/operations/operation.ts';
import type { Ctx } from '../context.ts';
import { relative } from '../format.ts';
import { sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { empty, page, pager, table } from '../layout.ts';
import { eventsOfRequest } from '../requests.repository.ts';
import type { View } from '../view.ts';
import { pageOf } from './accounts.ts';

/** A request's arrival to the second (its id holds it to the microsecond), with the relative hint. */
function arrived(id: string, now: Date): Html {
  const at = new Date(timeOfId(id));
  const text = `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 19)} UTC`;
  return html`<time datetime="${at.toISOString()}">${text}</time> <span class="hint">${relative(at, now)}</span>`;
}

/** 2xx good, 4xx a warning (the caller's to fix), 5xx bad. */
function statusBadge(status: number): Html {
  const tone = status < 300 ? 'good' : status < 500 ? 'warn' : 'bad';
  return html`<span class="badge ${tone}">${String(status)}</span>`;
}

/** An id as a link to its page when the dashboard has one, else as code. */
function idLink(id: string): Html {
  const href = pageOf(id);
  return href === undefined ? html`<code>${id}</code>` : html`<a href="${href}"><code>${id}</code></a>`;
}

/** An entry that stands for many refused requests (docs/api.md, "The request log") says how many. */
const refusedCount = (r: RequestLog) => (r.count === null ? '' : html` · ${String(r.count)} refused in this second`);

/** The path as sent, with its query string when it had one. */
const sent = (r: RequestLog) => (r.query === null ? r.path : `${r.path}?${r.query}`);

/** Three columns, so that a row reads on a phone: what (linked) and when, by whom and from where; status; time. */
function row(r: RequestLog, now: Date): Html {
  return html`<tr><td><a href="/dashboard/requests/${r.id}"><span class="method">${r.method}</span> <span class="break">${sent(r)}</span></a>
<br><span class="hint">${arrived(r.id, now)} · ${r.source} · <code>${r.api_key_hint}</code>${r.idempotent_replayed ? ' · replayed' : ''}${refusedCount(r)}</span></td>
<td>${statusBadge(r.status)}${r.error_code ? html`<br><code class="break">${r.error_code}</code>` : ''}</td>
<td class="num">${r.duration_ms.toFixed(1)} ms</td></tr>`;
}

const HIDDEN = 'Hidden: this key may not read what this request was about (docs: the request log).';

/** A logged body, pretty-printed when it is whole JSON; as kept (cut at 8 KiB) when it is not. */
function body(r: RequestLog, kept: string | null, truncated: boolean, none: string): Html {
  if (r.bodies_hidden) return html`<p class="muted">${HIDDEN}</p>`;
  if (kept === null) return html`<p class="muted">${none}</p>`;
  let text = kept;
  if (!truncated) {
    try {
      text = JSON.stringify(JSON.parse(kept), null, 2);
    } catch {}
  }
  return html`<pre class="json" tabindex="0">${text}</pre>${truncated ? html`<p class="hint">Cut at 8 KiB.</p>` : ''}`;
}

/** What the answer said: an error's detail and the field it named, then its body. */
function answer(r: RequestLog): Html {
  const problem =
    r.error_detail === null
      ? ''
      : html`<p class="problem">${r.error_detail}${r.error_param === null ? '' : html` <span class="hint">(<code>${r.error_param}</code>)</span>`}</p>`;
  return html`${problem}${body(r, r.response_body, r.response_truncated, 'No body kept: a successful read keeps none (read it again), nor does a HEAD or an entry from before answers were kept.')}`;
}

async function requestPage(ctx: Ctx, operations: Operations, view: View, id: string): Promise<Html> {
  view.need(ops.retrieveRequest);
  const r = await retrieveRequestLog(ctx.deps.database.db, operations, view.principal, id);
  // What it produced is events: shown only to a key that may read them (docs/api.md#restricted-keys).
  const events = view.can(ops.listEvents) ? await eventsOfRequest(ctx.deps.database.db, view.principal, r.id) : null;
  // What it acted on (ids in its path) and what it produced (its events and their objects), each linked.
  const touched = new Set(r.path.match(/\b[a-z]+_[0-9A-Za-z]{26}\b/g) ?? []);
  const produced = (events ?? []).map(
    (e) => html`<li><a href="/dashboard/events/${e.id}"><code>${e.type}</code></a> · ${idLink(e.objectId)}</li>`,
  );
  return page(
    view,
    r.id,
    html`<p class="crumbs"><a href="/dashboard/requests">Requests</a> /</p>
<h1><span class="method">${r.method}</span> <span class="break">${r.path}</span> ${statusBadge(r.status)}</h1>
<dl class="facts"><dt>Request</dt><dd><code>${r.id}</code></dd><dt>Arrived</dt><dd>${arrived(r.id, view.now)}</dd>
<dt>Query</dt><dd>${r.query === null ? html`<span class="muted">none</span>` : html`<code class="break">?${r.query}</code>`}</dd>
<dt>Operation</dt><dd><code>${r.method} ${r.route}</code></dd><dt>Status</dt><dd>${String(r.status)}${r.error_code ? html` · <code>${r.error_code}</code>` : ''}</dd>
${r.count === null ? '' : html`<dt>Requests</dt><dd>${String(r.count)}, refused by the rate limit in this second; shown: the first</dd>`}
<dt>Duration</dt><dd>${r.duration_ms.toFixed(2)} ms</dd><dt>Source</dt><dd>${r.source === 'dashboard' ? 'the dashboard' : 'the API'}</dd>
<dt>API key</dt><dd><code>${r.api_key_hint}</code> · <code>${r.api_key_id}</code></dd>
<dt>Idempotency-Key</dt><dd>${r.idempotency_key === null ? html`<span class="muted">none</span>` : html`<code>${r.idempotency_key}</code>${r.idempotent_replayed ? ' · replayed (the stored answer was sent)' : ''}`}</dd>
<dt>Acted on</dt><dd>${touched.size === 0 ? html`<span class="muted">nothing by id</span>` : [...touched].map((t) => html`${idLink(t)} `)}</dd></dl>
${events && html`<section><h2>Events it produced</h2>${produced.length === 0 ? html`<p class="muted">None.</p>` : html`<ul class="produced">${produced}</ul>`}</section>`}
<section><h2>Body</h2>${body(r, r.body, r.body_truncated, "No body (only a POST's is kept).")}</section>
<section><h2>Answer</h2>${answer(r)}</section>`,
  );
}

/**
 * The request log (docs/dashboard.md#the-request-log): newest first, filtered by status and method, paged; one request
 * in full.
 */
export function requestsPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const db = ctx.deps.database.db;

  r.get('/requests', { schema: { hide: true, querystring: RequestLogListQuery } }, async (request, reply) => {
    answerShowsRequestLog(request);
    const view = await ctx.view(request);
    view.need(ops.listRequests);
    const query = request.query;
    const list = await listRequestLogs(db, request.server.operations, view.principal, query);
    const methods = ['', ...METHODS].map(
      (m) =>
        html`<option value="${m}"${m === (query.method ?? '') ? html` selected` : ''}>${m || 'Any method'}</option>`,
    );
    const filtered = query.status !== undefined || query.method !== undefined;
    const main = html`<h1>Requests</h1>
<p class="lede">Every API request made with this organisation’s ${view.principal.mode} keys, and every action taken here, newest first. Bodies have their secrets replaced by <code>[redacted]</code>. A request shows up a moment after its answer.</p>
<form method="get" action="/dashboard/requests" class="filters">
<div class="field"><label for="f-status">Status (409, or 4xx)</label><input id="f-status" name="status" type="text" pattern="${STATUS_FILTER_PATTERN}" title="One status, such as 409, or a class: 2xx, 4xx, 5xx" value="${query.status ?? ''}" placeholder="e.g. 409 or 4xx" size="8"></div>
<div class="field"><label for="f-method">Method</label><select id="f-method" name="method">${methods}</select></div>
<button type="submit">Filter</button></form>
${table(
  'Requests',
  ['Request', 'Status', 'Duration'],
  list.data.map((x) => row(x, view.now)),
  empty(
    filtered ? 'No request matches' : 'No requests yet',
    filtered
      ? html`<a href="/dashboard/requests">Show every request</a>.`
      : html`Requests made with this organisation’s keys show up here, such as <code>GET /v1/fintech/accounts</code>.`,
  ),
)}
${pager(
  '/dashboard/requests',
  { status: query.status, method: query.method },
  list.data.map((x) => x.id),
  query,
  list.has_more,
)}`;
    return sendHtml(reply, page(view, 'Requests', main));
  });

  r.get('/requests/:id', { schema: { hide: true, params: RequestLogIdParams } }, async (request, reply) => {
    answerShowsRequestLog(request);
    return sendHtml(
      reply,
      await requestPage(ctx, request.server.operations, await ctx.view(request), request.params.id),
    );
  });
}
