import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ops } from '../../ops.ts';
import { PAYMENT_STATUSES, type Payment, PaymentListQuery } from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { badge, money, time } from '../format.ts';
import { sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { empty, page, pager, table } from '../layout.ts';

export const RAILS: [string, string][] = [
  ['ach', 'ACH'],
  ['wire', 'Wire'],
  ['rtp', 'RTP (real-time)'],
];
export const railName = (rail: string) => RAILS.find(([r]) => r === rail)?.[1].replace(/ \(.*\)$/, '') ?? rail;

/** Who is on the other side: the external account paid (linked), or who sent an inbound payment. */
export function counterparty(p: Payment): Html {
  if (p.external_account_id !== null)
    return html`<a href="/dashboard/external-accounts/${p.external_account_id}"><code>${p.external_account_id}</code></a>`;
  return p.originator_name === null ? html`<span class="muted">—</span>` : html`${p.originator_name}`;
}

export function paymentRow(p: Payment, now: Date): Html {
  const out = p.direction === 'outbound';
  return html`<tr><td><a href="/dashboard/payments/${p.id}"><code>${p.id}</code></a>${p.description ? html`<br><span class="hint">${p.description}</span>` : ''}</td>
<td>${out ? 'Out' : 'In'} · ${railName(p.rail)}</td><td><a href="/dashboard/accounts/${p.account_id}"><code>${p.account_id}</code></a></td>
<td>${counterparty(p)}</td><td class="num">${money(out ? -p.amount : p.amount, p.currency, true)}</td>
<td>${badge(p.status)}${p.return_reason ? html`<br><span class="hint">${p.return_reason.code}</span>` : ''}</td><td>${time(p.created_at, now)}</td></tr>`;
}

/** A filter of the list: a select whose first option is "any". */
function filter(name: string, label: string, any: string, options: readonly string[], chosen: string | undefined) {
  const all = ['', ...options].map(
    (o) => html`<option value="${o}"${o === (chosen ?? '') ? html` selected` : ''}>${o === '' ? any : o}</option>`,
  );
  return html`<div class="field"><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">${all}</select></div>`;
}

/** Payments: the list, filtered by status, rail and direction (and one account's); the payment pages are beside it. */
export function paymentsPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/payments', { schema: { hide: true, querystring: PaymentListQuery } }, async (request, reply) => {
    const view = await ctx.view(request);
    const query = request.query;
    const list = await ctx.read(view.principal, ops.listPayments, { query });
    const filtered = query.status ?? query.rail ?? query.direction;
    const main = html`<h1>Payments</h1>
<p class="actions">${view.can(ops.createPayment) && html`<a class="button primary" href="/dashboard/payments/new">Send a payment</a>`}
${view.can(ops.listExternalAccounts) && html`<a class="button" href="/dashboard/external-accounts">External accounts</a>`}
${view.principal.mode === 'sandbox' && view.can(ops.simulateInboundPayment) ? html`<a class="button" href="/dashboard/sandbox#inbound">Simulate an inbound payment</a>` : ''}</p>
<form method="get" action="/dashboard/payments" class="filters">${query.account_id ? html`<input type="hidden" name="account_id" value="${query.account_id}">` : ''}
${filter('status', 'Status', 'Any status', PAYMENT_STATUSES, query.status)}
${filter('rail', 'Rail', 'Any rail', ['ach', 'wire', 'rtp'], query.rail)}
${filter('direction', 'Direction', 'Either direction', ['outbound', 'inbound'], query.direction)}
<button type="submit">Filter</button></form>
${query.account_id ? html`<p class="active-filter">Payments of <a href="/dashboard/accounts/${query.account_id}"><code>${query.account_id}</code></a> · <a href="/dashboard/payments">all payments</a></p>` : ''}
${table(
  'Payments',
  ['Payment', 'Rail', 'Account', 'Other party', 'Amount', 'Status', 'Created'],
  list.data.map((p) => paymentRow(p, view.now)),
  empty(
    filtered ? 'No payments match' : 'No payments yet',
    'Pay an external account with “Send a payment”; money received at an account number shows up here too.',
  ),
)}
${pager(
  '/dashboard/payments',
  { account_id: query.account_id, status: query.status, rail: query.rail, direction: query.direction },
  list.data.map((p) => p.id),
  query,
  list.has_more,
)}`;
    return sendHtml(reply, page(view, 'Payments', main));
  });
}
