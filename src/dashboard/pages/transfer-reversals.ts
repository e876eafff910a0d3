import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ops } from '../../ops.ts';
import { reversibleAmount, type Transfer, TransferIdParams } from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { majorUnits, money, time } from '../format.ts';
import { amountField, optional } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { empty, formFields, input, problemSummary, table } from '../layout.ts';
import { typedIn } from '../units.ts';
import { type FormState, stateOf, type View } from '../view.ts';
import { movesWithPayment } from './accounts.ts';

const LISTED = 100;

/** What of a transfer is left to move back: the service's own rule (reversals.service.ts). */
export const remaining = (t: Transfer) => reversibleAmount(t);

/** Whether the page offers the reversal form: something is left to reverse. */
export const reversible = (t: Transfer) => reversibleAmount(t) > 0;

/** A posted transfer's reversals, newest first, and the form that moves back all or part of what remains. */
export async function reversalsSection(ctx: Ctx, view: View, t: Transfer, state: FormState | undefined) {
  if (t.status !== 'posted') return html``;
  const list = await ctx.read(view.principal, ops.listTransferReversals, {
    params: { id: t.id },
    query: { limit: LISTED },
  });
  const s = stateOf(state, 'reverse');
  const rows = list.data.map(
    (r) => html`<tr><td class="num">${money(r.amount, r.currency)}</td>
<td>${r.description ?? html`<span class="muted">—</span>`}</td><td>${time(r.created_at, view.now)}</td><td><code>${r.id}</code></td></tr>`,
  );
  const form: Html =
    reversible(t) && view.can(ops.createTransferReversal) && !movesWithPayment(t)
      ? html`<form method="post" action="/dashboard/transfers/${t.id}/reversals" class="inline-form">${formFields(view)}${problemSummary(s)}
${input({ name: 'amount', label: `Amount to reverse (${t.currency})`, state: s, hint: `Leave empty to reverse all that remains, ${majorUnits(remaining(t), t.currency)}.`, attrs: html` inputmode="decimal"` })}
${input({ name: 'description', label: 'Description (optional)', state: s, hint: 'Why, such as “Refund: order 6735”.' })}
<button type="submit" class="danger" data-confirm="Move this money back to the sender? A reversal cannot be undone.">Reverse</button></form>`
      : problemSummary(s);
  return html`<section class="card" id="reversals"><h2>Reversals</h2>
<p class="hint">A correction moves money back from the receiver to the sender, linked to this transfer; nothing is edited.</p>
${form}
${table('Reversals', ['Amount', 'Description', 'Created', 'Reversal'], rows, empty('Not reversed', 'A reversal of all or part of this transfer shows up here.'))}
${list.has_more ? html`<p class="hint">The newest ${LISTED} reversals.</p>` : ''}</section>`;
}

export function reversalRoutes(
  scope: FastifyInstance,
  ctx: Ctx,
  again: (view: View, id: string, s: FormState) => Promise<Html>,
) {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  r.post('/transfers/:id/reversals', { schema: { hide: true, params: TransferIdParams } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'reverse',
      build: async (fields, principal) => {
        const params = { id: request.params.id };
        const t = await ctx.read(principal, ops.retrieveTransfer, { params });
        typedIn(fields, t.currency); // an empty amount is all of it: a refusal still speaks in its unit
        const description = optional(fields, 'description');
        const body = {
          ...(optional(fields, 'amount') === undefined ? {} : { amount: amountField(fields, 'amount', t.currency) }),
          ...(description === undefined ? {} : { description }),
        };
        return { operation: ops.createTransferReversal, params, body };
      },
      done: () => `/dashboard/transfers/${request.params.id}?done=reversed`,
      again: (view, state) => again(view, request.params.id, state),
    }),
  );
}
