import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { ops } from '../../ops.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { IdOf } from '../../platform/kit/schema.ts';
import { RETURN_CODES, RETURN_REASONS } from '../../products/fintech/payments.returns.ts';
import {
  type ExternalAccount,
  PAYMENT_STATUSES,
  type Payment,
  PaymentIdParams,
  PaymentListQuery,
} from '../../products/fintech/payments.schema.ts';
import type { Action } from '../act.ts';
import type { Ctx } from '../context.ts';
import { badge, money, time } from '../format.ts';
import { amountField, optional, sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import {
  empty,
  flash,
  formFields,
  input,
  metadataList,
  page,
  pager,
  problemSummary,
  select,
  table,
} from '../layout.ts';
import { detailFor, type FormState, stateOf, type View } from '../view.ts';
import { accountPicker, openAccounts, PICKER_MAX } from './account-picker.ts';
import { accountName } from './accounts.ts';

const RAILS: [string, string][] = [
  ['ach', 'ACH'],
  ['wire', 'Wire'],
  ['rtp', 'RTP (real-time)'],
];
const railName = (rail: string) => RAILS.find(([r]) => r === rail)?.[1].replace(/ \(.*\)$/, '') ?? rail;

const DONE = {
  created: 'Payment sent: its amount is held on the account until it settles.',
  canceled: 'Payment canceled: the hold is released, nothing moved.',
  received: 'Inbound payment simulated.',
  settled: 'Payment settled (simulated).',
  returned: 'Payment returned (simulated).',
  rejected: 'Payment rejected (simulated).',
} as const;
const OneQuery = Type.Object(
  { done: Type.Optional(Type.Union(Object.keys(DONE).map((k) => Type.Literal(k as keyof typeof DONE)))) },
  { additionalProperties: false },
);
const NewQuery = Type.Object(
  {
    account_id: Type.Optional(IdOf('acct', { description: 'The account to pay from.' })),
    external_account_id: Type.Optional(IdOf('ext', { description: 'The external account to pay.' })),
  },
  { additionalProperties: false },
);
type ListQuery = Static<typeof PaymentListQuery>;

/** Who is on the other side: the external account paid (linked), or who sent an inbound payment. */
function counterparty(p: Payment): Html {
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

/**
 * A payment's timeline, from its own times: created, submitted to the rail, settled, and how it ended otherwise
 * (`returned_at` is when it was returned, rejected or canceled). A step still to come reads "not yet".
 */
function timeline(p: Payment, now: Date): Html {
  const ended = ['returned', 'rejected', 'canceled'].includes(p.status);
  const steps: [string, string | null][] = [
    ['Created', p.created_at],
    ...(p.direction === 'outbound' && p.status !== 'canceled'
      ? [['Submitted to the rail', p.submitted_at] as [string, string | null]]
      : []),
    ...(!ended || p.settled_at !== null ? [['Settled', p.settled_at] as [string, string | null]] : []),
    ...(ended ? [[p.status[0]!.toUpperCase() + p.status.slice(1), p.returned_at] as [string, string | null]] : []),
  ];
  return html`<ol class="timeline">${steps.map(
    ([what, at]) =>
      html`<li class="${at === null ? 'todo' : 'done'}"><span class="step">${what}</span> ${at === null ? html`<span class="muted">not yet</span>` : time(at, now)}</li>`,
  )}</ol>`;
}

/**
 * Sandbox only: what the receiving bank would do to a payment out, on demand (the API's simulations): settle it now
 * (submitted first if it was not), return an ACH one with a code (before settlement its hold ends; after it, its
 * transfer is reversed), reject a wire or RTP one before it settles.
 */
function simulations(view: View, p: Payment, state: FormState | undefined): Html {
  if (view.principal.mode !== 'sandbox' || p.direction !== 'outbound') return html``;
  const open = p.status === 'pending_submission' || p.status === 'submitted';
  const ach = p.rail === 'ach';
  const base = `/dashboard/payments/${p.id}`;
  const forms: Html[] = [];
  if (open && view.can(ops.simulatePaymentSettlement))
    forms.push(html`<form method="post" action="${base}/settle" class="inline-form">${formFields(view)}
<p>As the rail would: rules apply as they would then.</p><button type="submit">Settle now</button></form>`);
  if (ach && (open || p.status === 'settled') && view.can(ops.simulatePaymentReturn)) {
    const s = stateOf(state, 'return');
    forms.push(html`<form method="post" action="${base}/return" class="inline-form">${formFields(view)}
${select({ name: 'reason', label: 'Return reason', state: s, value: 'R01', options: RETURN_CODES.map((c): [string, string] => [c, `${c} · ${RETURN_REASONS[c]}`]) })}
<button type="submit" class="danger">Return</button></form>`);
  }
  if (!ach && open && view.can(ops.simulatePaymentRejection))
    forms.push(html`<form method="post" action="${base}/reject" class="inline-form">${formFields(view)}
<p>The receiving bank refuses it: the hold ends, nothing moves.</p><button type="submit" class="danger">Reject</button></form>`);
  if (forms.length === 0) return html``;
  const refused = ['settle', 'return', 'reject'].includes(state?.form ?? '') ? state : undefined;
  return html`<section class="card" id="simulate"><h2>Simulate</h2>
<p class="hint">Sandbox only: what the receiving bank would do, now.</p>${problemSummary(refused)}<div class="split">${forms}</div></section>`;
}

/** The org's external accounts, newest first, up to PICKER_MAX (pages of the API's list). */
async function externalAccounts(ctx: Ctx, principal: Principal): Promise<{ list: ExternalAccount[]; more: boolean }> {
  const list: ExternalAccount[] = [];
  let after: string | undefined;
  for (;;) {
    const query = { limit: 100, ...(after ? { starting_after: after } : {}) };
    const page = await ctx.read(principal, ops.listExternalAccounts, { query });
    list.push(...page.data);
    after = page.data.at(-1)?.id;
    if (!page.has_more || after === undefined) return { list, more: false };
    if (list.length >= PICKER_MAX) return { list, more: true };
  }
}

/** A select of external accounts: holder, type, routing number and last four digits. */
function externalPicker(state: FormState | undefined, list: ExternalAccount[], value: string | undefined): Html {
  const error = detailFor(state, 'external_account_id');
  const chosen = state?.values.external_account_id ?? value;
  const id = 'f-external_account_id';
  return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">Pay</label>
<select id="${id}" name="external_account_id" required aria-describedby="${id}-hint${error ? ` ${id}-error` : ''}"${error ? html` aria-invalid="true"` : ''}>
<option value=""${chosen ? '' : html` selected`}>Choose an external account</option>${list.map(
    (e) =>
      html`<option value="${e.id}"${e.id === chosen ? html` selected` : ''}>${e.account_holder_name} · ${e.account_type} · ${e.routing_number} …${e.account_number_last4}</option>`,
  )}</select>
<p class="hint" id="${id}-hint">The bank accounts outside Plinth you pay; <a href="/dashboard/external-accounts">add one</a>.</p>${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}</div>`;
}

/** Payments: the list (filtered by status, rail and direction), one payment and its cancel, and "Send a payment". */
export function paymentsPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/payments', { schema: { hide: true, querystring: PaymentListQuery } }, async (request, reply) => {
    const view = await ctx.view(request);
    const query: ListQuery = request.query;
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

  async function newPage(view: View, query: Static<typeof NewQuery>, state?: FormState): Promise<Html> {
    view.need(ops.createPayment);
    const s = stateOf(state, 'create');
    const [{ accounts, more }, externals] = await Promise.all([
      view.can(ops.listAccounts) ? openAccounts(ctx, view.principal) : { accounts: [], more: false },
      view.can(ops.listExternalAccounts) ? externalAccounts(ctx, view.principal) : { list: [], more: false },
    ]);
    const usd = accounts.filter((a) => a.available_balance.currency === 'USD');
    const listed = more ? `The newest ${PICKER_MAX} open accounts in USD.` : 'The open accounts in USD.';
    return page(
      view,
      'Send a payment',
      html`<p class="crumbs"><a href="/dashboard/payments">Payments</a> /</p><h1>Send a payment</h1>
<section class="card">${problemSummary(s)}<form method="post" action="/dashboard/payments">${formFields(view)}
${accountPicker({ name: 'account_id', label: 'From account', state: s, value: query.account_id, hint: listed }, usd)}
${externalPicker(s, externals.list, query.external_account_id)}
${select({ name: 'rail', label: 'Rail', state: s, value: 'ach', options: RAILS, hint: 'ACH settles the next business day; a wire in banking hours; RTP at once.' })}
${input({ name: 'amount', label: 'Amount (USD)', state: s, required: true, hint: 'In dollars, e.g. 60.00', attrs: html` inputmode="decimal"` })}
${input({ name: 'description', label: 'Description (optional)', state: s })}
<button type="submit" class="primary">Send payment</button></form></section>`,
    );
  }

  r.get('/payments/new', { schema: { hide: true, querystring: NewQuery } }, async (request, reply) =>
    sendHtml(reply, await newPage(await ctx.view(request), request.query)),
  );

  r.post('/payments', { schema: { hide: true } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'create',
      build: async (fields) => {
        const account = (fields.get('account_id') ?? '').trim();
        if (account === '')
          throw new ApiError('parameter_missing', 'Choose the account to pay from.', { param: 'account_id' });
        const body = {
          account_id: account,
          external_account_id: (fields.get('external_account_id') ?? '').trim(),
          amount: amountField(fields, 'amount', 'USD'),
          currency: 'USD',
          rail: fields.get('rail') ?? '',
          ...(optional(fields, 'description') === undefined ? {} : { description: fields.get('description') }),
        };
        return { operation: ops.createPayment, body };
      },
      done: ({ value }) => `/dashboard/payments/${value.id}?done=created`,
      again: (view, state) => newPage(view, {}, state),
    }),
  );

  async function paymentPage(view: View, id: string, done: keyof typeof DONE | undefined, state?: FormState) {
    const p = await ctx.read(view.principal, ops.retrievePayment, { params: { id } });
    const [account, external] = await Promise.all([
      view.can(ops.retrieveAccount)
        ? ctx.read(view.principal, ops.retrieveAccount, { params: { id: p.account_id } }).catch(() => null)
        : null,
      p.external_account_id !== null
        ? ctx.read(view.principal, ops.retrieveExternalAccount, { params: { id: p.external_account_id } })
        : null,
    ]);
    const cancel =
      p.status === 'pending_submission' && view.can(ops.cancelPayment)
        ? html`<section class="card"><h2>Cancel</h2>${problemSummary(stateOf(state, 'cancel'))}
<form method="post" action="/dashboard/payments/${p.id}/cancel" class="inline-form">${formFields(view)}
<p>Not yet submitted to the rail: canceling releases the hold, and nothing moves.</p>
<button type="submit" class="danger" data-confirm="Cancel this payment? The hold is released and nothing moves.">Cancel payment</button></form></section>`
        : problemSummary(state?.form === 'cancel' ? state : undefined);
    const out = p.direction === 'outbound';
    return page(
      view,
      p.id,
      html`<p class="crumbs"><a href="/dashboard/payments">Payments</a> /</p>
<h1>${money(p.amount, p.currency)} ${badge(p.status)}</h1>${flash(done === undefined ? undefined : DONE[done])}
${
  p.return_reason
    ? html`<div class="callout" id="return-reason"><p><strong>Returned: ${p.return_reason.code}</strong> · ${p.return_reason.description}</p></div>`
    : ''
}
<dl class="facts"><dt>Payment</dt><dd><code>${p.id}</code></dd>
<dt>Direction</dt><dd>${out ? 'Outbound: sent by the account' : 'Inbound: received by the account'} · ${railName(p.rail)}</dd>
<dt>${out ? 'From' : 'To'}</dt><dd>${account ? accountName(account) : html`<a href="/dashboard/accounts/${p.account_id}"><code>${p.account_id}</code></a>`}</dd>
<dt>${out ? 'To' : 'From'}</dt><dd>${external ? html`<strong>${external.account_holder_name}</strong> · ${external.routing_number} …${external.account_number_last4} ` : ''}${counterparty(p)}</dd>
<dt>Transfer</dt><dd>${p.transfer_id ? html`<a href="/dashboard/transfers/${p.transfer_id}"><code>${p.transfer_id}</code></a>` : html`<span class="muted">none: no money moved</span>`}</dd>
<dt>Description</dt><dd>${p.description ?? html`<span class="muted">none</span>`}</dd>
<dt>Metadata</dt><dd>${metadataList(p.metadata)}</dd></dl>
<section class="card" id="timeline"><h2>Timeline</h2>${timeline(p, view.now)}</section>
${cancel}${simulations(view, p, state)}`,
    );
  }

  r.get(
    '/payments/:id',
    { schema: { hide: true, params: PaymentIdParams, querystring: OneQuery } },
    async (request, reply) =>
      sendHtml(reply, await paymentPage(await ctx.view(request), request.params.id, request.query.done)),
  );

  r.post('/payments/:id/cancel', { schema: { hide: true, params: PaymentIdParams } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'cancel',
      build: async () => ({ operation: ops.cancelPayment, params: { id: request.params.id }, body: {} }),
      done: () => `/dashboard/payments/${request.params.id}?done=canceled`,
      again: (view, state) => paymentPage(view, request.params.id, undefined, state),
    }),
  );

  const simulate = (name: 'settle' | 'return' | 'reject', done: keyof typeof DONE) =>
    r.post(`/payments/:id/${name}`, { schema: { hide: true, params: PaymentIdParams } }, (request, reply) =>
      ctx.submit(request, reply, {
        name,
        build: async (fields): Promise<Action> => {
          const params = { id: request.params.id };
          if (name === 'settle') return { operation: ops.simulatePaymentSettlement, params, body: {} };
          if (name === 'reject') return { operation: ops.simulatePaymentRejection, params, body: {} };
          return { operation: ops.simulatePaymentReturn, params, body: { reason: fields.get('reason') ?? '' } };
        },
        done: () => `/dashboard/payments/${request.params.id}?done=${done}`,
        again: (view, state) => paymentPage(view, request.params.id, undefined, state),
      }),
    );
  simulate('settle', 'settled');
  simulate('return', 'returned');
  simulate('reject', 'rejected');
}
