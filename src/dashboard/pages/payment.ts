import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ops } from '../../ops.ts';
import { type Payment, PaymentIdParams, RETURN_CODES, RETURN_REASONS } from '../../products/fintech/index.ts';
import type { Action } from '../act.ts';
import type { Ctx } from '../context.ts';
import { badge, money, time } from '../format.ts';
import { sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { flash, formFields, metadataList, page, problemSummary, select } from '../layout.ts';
import { type FormState, stateOf, type View } from '../view.ts';
import { accountName } from './accounts.ts';
import { counterparty, railName } from './payments.ts';

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

/** One payment: its timeline, sides, transfer and return reason; Cancel while pending; the sandbox's simulations. */
export function paymentPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();

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
