import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ops } from '../../ops.ts';
import { type Account, AccountIdParams, AccountNumberIdParams } from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { badge, time } from '../format.ts';
import { optional } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { empty, formFields, input, page, problemSummary, select, table } from '../layout.ts';
import { type FormState, stateOf, type View } from '../view.ts';
import { secretPanel } from './webhooks.ts';

const DEBITS: [string, string][] = [
  ['blocked', 'Blocked: ACH debits are returned (R29)'],
  ['allowed', 'Allowed: others may pull money by ACH debit'],
];

/**
 * An account's bank account numbers (docs/api.md#bank-account-numbers-and-payments): each by its last four digits
 * (the full number is shown once, when it is created), its routing number, name, status and inbound debits; a form
 * that creates one, and a button that disables one (payments to it are then returned R02).
 */
export async function accountNumbersSection(
  ctx: Ctx,
  view: View,
  a: Account,
  state: FormState | undefined,
): Promise<Html> {
  if (!view.can(ops.listAccountNumbers)) return html``;
  const list = await ctx.read(view.principal, ops.listAccountNumbers, { query: { account_id: a.id, limit: 100 } });
  const canUpdate = view.can(ops.updateAccountNumber) && a.status !== 'closed';
  const base = `/dashboard/accounts/${a.id}/account-numbers`;
  const rows = list.data.map(
    (n) => html`<tr><td><code>…${n.account_number_last4}</code><br><span class="hint"><code>${n.id}</code></span></td>
<td><code>${n.routing_number}</code></td><td>${n.name ?? html`<span class="muted">none</span>`}</td><td>${badge(n.status)}</td>
<td>${n.inbound_debits}</td><td>${time(n.created_at, view.now)}</td>
<td>${
      canUpdate && n.status === 'active'
        ? html`<form method="post" action="${base}/${n.id}/disable">${formFields(view)}<button type="submit" class="danger small" aria-label="Disable the number ending ${n.account_number_last4}" data-confirm="Disable the number ending ${n.account_number_last4}? Payments to it will be returned (R02).">Disable</button></form>`
        : ''
    }</td></tr>`,
  );
  const create = stateOf(state, 'account-number');
  const other = state?.form === 'account-number-disable' ? problemSummary(state) : '';
  return html`<section class="card" id="account-numbers"><h2>Account numbers</h2>
<p class="hint">Bank account numbers that reach this account over ACH, wire and RTP; each is shown by its last four digits.</p>${other}
${table('Account numbers', ['Number', 'Routing number', 'Name', 'Status', 'Inbound debits', 'Created', ''], rows, empty('No account numbers', 'Create one to receive money from outside Plinth.'))}
${list.has_more ? html`<p class="hint">The newest 100 numbers.</p>` : ''}
${
  view.can(ops.createAccountNumber) && a.status !== 'closed'
    ? html`<h3 id="account-number-h">Create an account number</h3>${problemSummary(create)}
<form method="post" action="${base}" class="inline-form">${formFields(view)}
${input({ name: 'name', label: 'Name (optional)', state: create, hint: 'A label for people, such as “Rent collection”.' })}
${select({ name: 'inbound_debits', label: 'Inbound debits', state: create, value: 'blocked', options: DEBITS })}
<button type="submit">Create account number</button></form>`
    : ''
}</section>`;
}

const NumberParams = Type.Object(
  { ...AccountIdParams.properties, number: AccountNumberIdParams.properties.id },
  { additionalProperties: false },
);

/** Create (the full number shown once, with a copy button) and disable; a refusal shows the account page again. */
export function accountNumberRoutes(
  scope: FastifyInstance,
  ctx: Ctx,
  again: (view: View, id: string, state: FormState) => Promise<Html>,
): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();

  r.post('/accounts/:id/account-numbers', { schema: { hide: true, params: AccountIdParams } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'account-number',
      build: async (fields) => {
        const name = optional(fields, 'name');
        const body = {
          account_id: request.params.id,
          ...(name === undefined ? {} : { name }),
          inbound_debits: fields.get('inbound_debits') ?? 'blocked',
        };
        return { operation: ops.createAccountNumber, body };
      },
      done: ({ value }, view) =>
        page(
          view,
          'Account number created',
          html`<p class="crumbs"><a href="/dashboard/accounts/${value.account_id}">${value.account_id}</a> /</p>
<h1>Account number created</h1>
${secretPanel(`Account number ending ${value.account_number_last4}`, value.account_number, 'This form was sent twice: the number was created the first time and shown then. Its last four digits are on the account’s page; disable it and create another if it was not copied.')}
<dl class="facts"><dt>Routing number</dt><dd><code>${value.routing_number}</code></dd>
<dt>Name</dt><dd>${value.name ?? html`<span class="muted">none</span>`}</dd><dt>Inbound debits</dt><dd>${value.inbound_debits}</dd>
<dt>Id</dt><dd><code>${value.id}</code></dd></dl>
<p><a class="button" href="/dashboard/accounts/${value.account_id}#account-numbers">Back to the account</a></p>`,
        ),
      again: (view, state) => again(view, request.params.id, state),
    }),
  );

  r.post(
    '/accounts/:id/account-numbers/:number/disable',
    { schema: { hide: true, params: NumberParams } },
    (request, reply) =>
      ctx.submit(request, reply, {
        name: 'account-number-disable',
        build: async () => ({
          operation: ops.updateAccountNumber,
          params: { id: request.params.number },
          body: { status: 'disabled' },
        }),
        done: () => `/dashboard/accounts/${request.params.id}?done=number_disabled#account-numbers`,
        again: (view, state) => again(view, request.params.id, state),
      }),
  );
}
