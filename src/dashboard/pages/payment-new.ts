import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { ops } from '../../ops.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { IdOf } from '../../platform/kit/schema.ts';
import type { ExternalAccount } from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { amountField, optional, sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { formFields, input, page, problemSummary, select } from '../layout.ts';
import { detailFor, type FormState, stateOf, type View } from '../view.ts';
import { accountPicker, openAccounts, PICKER_MAX } from './account-picker.ts';
import { RAILS } from './payments.ts';

const NewQuery = Type.Object(
  {
    account_id: Type.Optional(IdOf('acct', { description: 'The account to pay from.' })),
    external_account_id: Type.Optional(IdOf('ext', { description: 'The external account to pay.' })),
  },
  { additionalProperties: false },
);

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

/** "Send a payment": the account and the external account picked, the rail, the amount in dollars. */
export function paymentNewPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();

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
}
