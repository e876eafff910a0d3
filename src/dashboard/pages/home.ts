import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { listEvents } from '../../platform/events/events.service.ts';
import type { Ctx } from '../context.ts';
import { badge, money, time } from '../format.ts';
import { sendHtml } from '../forms.ts';
import { html } from '../html.ts';
import { empty, page, table } from '../layout.ts';
import { accountCounts, countOf, failingEndpoints, totalsByCurrency } from '../summary.repository.ts';
import { eventRows } from './events.ts';

const NoQuery = Type.Object({}, { additionalProperties: false });

/** Home: the org and mode, counts, what the accounts hold per currency, the latest events, failing endpoints. */
export function homePage(scope: FastifyInstance, ctx: Ctx): void {
  const db = ctx.deps.database.db;
  scope.get('/', { schema: { hide: true, querystring: NoQuery } }, async (request, reply) => {
    const view = await ctx.view(request);
    const owner = view.principal;
    await ctx.deps.caughtUp();
    // Each part only when the key may read what it summarises (docs/api.md#restricted-keys).
    const when = <T>(operation: string, read: () => Promise<T>) => (view.can(operation) ? read() : null);
    const [counts, totals, transfers, endpoints, failing, events] = await Promise.all([
      when('listAccounts', () => accountCounts(db, owner)),
      when('listAccounts', () => totalsByCurrency(db, owner)),
      when('listTransfers', () => countOf(db, 'transfers', owner)),
      when('listWebhookEndpoints', () => countOf(db, 'webhook_endpoints', owner)),
      when('listWebhookEndpoints', () => failingEndpoints(db, owner)),
      when('listEvents', () => listEvents(db, owner, { limit: 5 })),
    ]);
    const accounts = counts === null ? 0 : (counts.active ?? 0) + (counts.frozen ?? 0) + (counts.closed ?? 0);
    const stat = (label: string, value: number | null, href: string, detail = '') =>
      value === null
        ? ''
        : html`<a class="stat" href="${href}"><span class="stat-value">${value.toLocaleString('en-US')}</span>
<span class="stat-label">${label}</span>${detail ? html`<span class="hint">${detail}</span>` : ''}</a>`;
    const main = html`<h1>Overview</h1>
${
  counts !== null && accounts === 0 && view.can('createAccount')
    ? html`<div class="callout"><p><strong>Welcome.</strong> This ${owner.mode} organisation has no accounts yet.</p>
<p><a class="button primary" href="/dashboard/accounts#create">Create your first account</a></p></div>`
    : ''
}
<section><h2 id="counts-h" class="visually-hidden">Counts</h2><div class="stats">
${stat('Accounts', counts && accounts, '/dashboard/accounts', `${counts?.active ?? 0} active · ${counts?.frozen ?? 0} frozen · ${counts?.closed ?? 0} closed`)}
${stat('Transfers', transfers, '/dashboard/transfers')}
${stat('Webhook endpoints', endpoints, '/dashboard/webhooks')}
</div></section>
${
  totals &&
  html`<section><h2 id="totals-h">Balances by currency</h2>
${table(
  'Balances by currency',
  ['Currency', 'Held in accounts'],
  totals.map((t) => html`<tr><td>${t.currency}</td><td class="num">${money(t.total, t.currency)}</td></tr>`),
  empty('No money yet', 'Totals appear once an account holds a balance.'),
)}
</section>`
}
${
  failing &&
  html`<section><h2 id="failing-h">Failing webhook endpoints</h2>
${table(
  'Failing webhook endpoints',
  ['Endpoint', 'Status', 'Failing since'],
  failing.map(
    (e) =>
      html`<tr><td><a href="/dashboard/webhooks/${e.id}">${e.url}</a></td><td>${badge(e.status)} ${e.disabled_reason ?? ''}</td><td>${time(e.failing_since === null ? null : `${e.failing_since.slice(0, 16)}Z`, view.now)}</td></tr>`,
  ),
  empty('All endpoints are delivering', 'Endpoints whose deliveries keep failing show up here.'),
)}
</section>`
}
${
  events &&
  html`<section><h2 id="events-h">Latest events</h2>
${table('Latest events', ['Event', 'Type', 'Sequence', 'When'], eventRows(events.data, view.now), empty('No events yet', 'Every change (an account created, a transfer, a key revoked) is recorded here as an event.'))}
<p><a href="/dashboard/events">All events →</a></p></section>`
}`;
    return sendHtml(reply, page(view, 'Overview', main));
  });
}
