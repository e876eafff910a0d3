import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ops } from '../../ops.ts';
import { systemPurposeOf, TransferIdParams } from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { majorUnits, money, time } from '../format.ts';
import { amountField, optional, sendHtml } from '../forms.ts';
import { html } from '../html.ts';
import { flash, formFields, input, metadataList, page, problemSummary } from '../layout.ts';
import { typedIn } from '../units.ts';
import { type FormState, stateOf, type View } from '../view.ts';
import { accountName, movesWithPayment } from './accounts.ts';
import { reversalRoutes, reversalsSection } from './transfer-reversals.ts';
import { transferAmounts, transferStatus } from './transfers.ts';

const DONE = {
  created: 'Transfer made.',
  posted: 'Transfer posted: the money moved, and both accounts show a transaction.',
  voided: 'Transfer voided: the hold is released, nothing moved.',
  reversed: 'Reversal made: the money went back to the sender.',
} as const;
const OneQuery = Type.Object(
  { done: Type.Optional(Type.Union(Object.keys(DONE).map((k) => Type.Literal(k as keyof typeof DONE)))) },
  { additionalProperties: false },
);
const _NoBody = Type.Object({}, { additionalProperties: false });

/** One transfer: what, between whom, its status and hold; a pending one can be posted (all or part) or voided. */
async function transferPage(ctx: Ctx, view: View, id: string, done: keyof typeof DONE | undefined, state?: FormState) {
  const t = await ctx.read(view.principal, ops.retrieveTransfer, { params: { id } });
  const base = `/dashboard/transfers/${t.id}`;
  const { shown, released } = transferAmounts(t);
  const post = stateOf(state, 'post');
  const payment = movesWithPayment(t);
  const canResolve = view.can(ops.postTransfer) && view.can(ops.voidTransfer) && !payment;
  // Each side by its nickname when the key may read accounts; by its id alone otherwise (a system account has no
  // account object: a payment's clearing account).
  const side = async (id: string) =>
    view.can(ops.retrieveAccount) && systemPurposeOf(id) === undefined
      ? ctx.read(view.principal, ops.retrieveAccount, { params: { id } })
      : { id, nickname: null };
  const [from, to, reversals] = await Promise.all([
    side(t.from_account_id),
    side(t.to_account_id),
    reversalsSection(ctx, view, t, state),
  ]);
  const pending =
    t.status === 'pending' && canResolve
      ? html`<section class="card"><h2>Post or void</h2>${problemSummary(post ?? stateOf(state, 'void'))}
<div class="split"><form method="post" action="${base}/post" class="inline-form">${formFields(view)}
${input({ name: 'amount', label: `Amount to post (${t.currency})`, state: post, hint: `Leave empty to post all ${majorUnits(t.amount, t.currency)}; what is not posted returns to the sender.`, attrs: html` inputmode="decimal"` })}
<button type="submit" class="primary">Post</button></form>
<form method="post" action="${base}/void" class="inline-form">${formFields(view)}<p>Release the hold: nothing moves.</p>
<button type="submit" class="danger" data-confirm="Void this transfer? The hold is released and nothing moves.">Void</button></form></div></section>`
      : // A refused post or void of a transfer no longer pending (voided meanwhile): the problem, above its facts.
        problemSummary(state?.form === 'reverse' ? undefined : state);
  return page(
    view,
    t.id,
    html`<p class="crumbs"><a href="/dashboard/transfers">Transfers</a> /</p>
<h1>${money(shown, t.currency)} ${transferStatus(t)}</h1>${flash(done === undefined ? undefined : DONE[done])}
${payment ? html`<p class="status-note">This transfer moves a payment’s money: it settles, is returned or is canceled with the payment${view.can(ops.listPayments) ? html` (<a href="/dashboard/payments">Payments</a>)` : ''}.</p>` : ''}
${t.status === 'pending' ? '' : pending}<dl class="facts"><dt>Transfer</dt><dd><code>${t.id}</code></dd>
<dt>From</dt><dd>${accountName(from)}</dd><dt>To</dt><dd>${accountName(to)}</dd>
<dt>Description</dt><dd>${t.description ?? html`<span class="muted">none</span>`}</dd>
${t.status === 'pending' ? html`<dt>Held until</dt><dd>${time(t.expires_at, view.now)}</dd>` : ''}
${t.pending && t.status !== 'pending' ? html`<dt>Held</dt><dd>${money(t.amount, t.currency)}</dd>` : ''}
${t.posted_amount !== null ? html`<dt>Posted</dt><dd>${money(t.posted_amount, t.currency)}</dd>` : ''}
${t.amount_reversed > 0 ? html`<dt>Reversed</dt><dd>${money(t.amount_reversed, t.currency)}${t.reversed ? html` <span class="badge muted">fully reversed</span>` : html` <span class="hint">of ${majorUnits(t.posted_amount ?? 0, t.currency)}</span>`}</dd>` : ''}
${released > 0 ? html`<dt>Released</dt><dd>${money(released, t.currency)}</dd>` : ''}
${t.resolved_at ? html`<dt>Resolved</dt><dd>${time(t.resolved_at, view.now)}</dd>` : ''}
<dt>Created</dt><dd>${time(t.created_at, view.now)}</dd><dt>Metadata</dt><dd>${metadataList(t.metadata)}</dd></dl>
${t.status === 'pending' ? pending : ''}${reversals}`,
  );
}

export function transferPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const params = TransferIdParams;

  r.get('/transfers/:id', { schema: { hide: true, params, querystring: OneQuery } }, async (request, reply) =>
    sendHtml(reply, await transferPage(ctx, await ctx.view(request), request.params.id, request.query.done)),
  );

  r.post('/transfers/:id/post', { schema: { hide: true, params } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'post',
      build: async (fields, principal) => {
        const params = { id: request.params.id };
        const t = await ctx.read(principal, ops.retrieveTransfer, { params });
        typedIn(fields, t.currency); // an empty amount is all of it: a refusal still speaks in its unit
        const body =
          optional(fields, 'amount') === undefined ? {} : { amount: amountField(fields, 'amount', t.currency) };
        return { operation: ops.postTransfer, params, body };
      },
      done: () => `/dashboard/transfers/${request.params.id}?done=posted`,
      again: (view, state) => transferPage(ctx, view, request.params.id, undefined, state),
    }),
  );

  r.post('/transfers/:id/void', { schema: { hide: true, params } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'void',
      build: async () => ({ operation: ops.voidTransfer, params: { id: request.params.id }, body: {} }),
      done: () => `/dashboard/transfers/${request.params.id}?done=voided`,
      again: (view, state) => transferPage(ctx, view, request.params.id, undefined, state),
    }),
  );

  reversalRoutes(scope, ctx, (view, id, state) => transferPage(ctx, view, id, undefined, state));
}
