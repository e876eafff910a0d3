import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { ops } from '../../ops.ts';
import {
  type ExternalAccount,
  ExternalAccountIdParams,
  ExternalAccountListQuery,
} from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { badge, time } from '../format.ts';
import { metadataField, sendHtml } from '../forms.ts';
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
  textarea,
} from '../layout.ts';
import { type FormState, stateOf, type View } from '../view.ts';

const OneQuery = Type.Object({ done: Type.Optional(Type.Literal('created')) }, { additionalProperties: false });

const row = (e: ExternalAccount, now: Date) =>
  html`<tr><td><a href="/dashboard/external-accounts/${e.id}">${e.account_holder_name}</a><br><span class="hint"><code>${e.id}</code></span></td>
<td><code>${e.routing_number}</code></td><td><code>…${e.account_number_last4}</code></td><td>${e.account_type}</td><td>${badge(e.status)}</td><td>${time(e.created_at, now)}</td></tr>`;

/** External accounts: the bank accounts outside Plinth that payments go to; the list, the form, and one of them. */
export function externalAccountsPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();

  async function listPage(
    view: View,
    query: Static<typeof ExternalAccountListQuery>,
    state?: FormState,
  ): Promise<Html> {
    const list = await ctx.read(view.principal, ops.listExternalAccounts, { query });
    const s = stateOf(state, 'create');
    return page(
      view,
      'External accounts',
      html`<p class="crumbs"><a href="/dashboard/payments">Payments</a> /</p><h1>External accounts</h1>
<p class="hint">Bank accounts outside Plinth that payments are sent to; each number is shown by its last four digits.</p>
${table(
  'External accounts',
  ['Holder', 'Routing number', 'Account number', 'Type', 'Status', 'Created'],
  list.data.map((e) => row(e, view.now)),
  empty('No external accounts yet', 'Add the bank account of someone you pay below.'),
)}
${pager(
  '/dashboard/external-accounts',
  {},
  list.data.map((e) => e.id),
  query,
  list.has_more,
)}
${
  view.can(ops.createExternalAccount) &&
  html`<section class="card"><h2 id="create-h">Add an external account</h2>${problemSummary(s)}
<form method="post" action="/dashboard/external-accounts">${formFields(view)}
${input({ name: 'account_holder_name', label: 'Account holder', state: s, required: true, hint: 'Whose account it is, such as “Acme Supplies LLC”.' })}
${input({ name: 'routing_number', label: 'Routing number', state: s, required: true, hint: 'The bank’s 9-digit ABA routing number.', attrs: html` inputmode="numeric" autocomplete="off" spellcheck="false"` })}
${input({ name: 'account_number', label: 'Account number', state: s, required: true, hint: '4 to 17 digits. Shown afterwards as its last four digits only.', attrs: html` inputmode="numeric" autocomplete="off" spellcheck="false"` })}
${select({ name: 'account_type', label: 'Type', state: s, value: 'checking', options: ['checking', 'savings'] })}
${textarea({ name: 'metadata', label: 'Metadata (optional)', state: s, hint: 'One key=value a line: your own references. Never secrets.', attrs: html` spellcheck="false"` })}
<button type="submit" class="primary">Add external account</button></form></section>`
}`,
    );
  }

  r.get(
    '/external-accounts',
    { schema: { hide: true, querystring: ExternalAccountListQuery } },
    async (request, reply) => sendHtml(reply, await listPage(await ctx.view(request), request.query)),
  );

  r.post('/external-accounts', { schema: { hide: true } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'create',
      build: async (fields) => {
        const metadata = metadataField(fields, 'metadata');
        const body = {
          account_holder_name: fields.get('account_holder_name') ?? '',
          routing_number: (fields.get('routing_number') ?? '').trim(),
          account_number: (fields.get('account_number') ?? '').replace(/[\s-]/g, ''),
          account_type: fields.get('account_type') ?? '',
          ...(metadata === undefined ? {} : { metadata }),
        };
        return { operation: ops.createExternalAccount, body };
      },
      done: ({ value }) => `/dashboard/external-accounts/${value.id}?done=created`,
      again: (view, state) => listPage(view, {}, state),
    }),
  );

  r.get(
    '/external-accounts/:id',
    { schema: { hide: true, params: ExternalAccountIdParams, querystring: OneQuery } },
    async (request, reply) => {
      const view = await ctx.view(request);
      const e = await ctx.read(view.principal, ops.retrieveExternalAccount, { params: request.params });
      return sendHtml(
        reply,
        page(
          view,
          e.account_holder_name,
          html`<p class="crumbs"><a href="/dashboard/external-accounts">External accounts</a> /</p>
<h1>${e.account_holder_name} ${badge(e.status)}</h1>${flash(request.query.done === 'created' ? 'External account added.' : undefined)}
<dl class="facts"><dt>External account</dt><dd><code>${e.id}</code></dd>
<dt>Routing number</dt><dd><code>${e.routing_number}</code></dd><dt>Account number</dt><dd><code>…${e.account_number_last4}</code></dd>
<dt>Type</dt><dd>${e.account_type}</dd><dt>Added</dt><dd>${time(e.created_at, view.now)}</dd>
<dt>Metadata</dt><dd>${metadataList(e.metadata)}</dd></dl>
${view.can(ops.createPayment) && html`<p class="actions"><a class="button primary" href="/dashboard/payments/new?external_account_id=${e.id}">Send a payment to this account</a></p>`}`,
        ),
      );
    },
  );
}
