import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { ops } from '../../ops.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { type Account, AccountListQuery, currencyOf, systemPurposeOf } from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { badge, money, time } from '../format.ts';
import { metadataField, optional, sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { empty, formFields, input, page, pager, problemSummary, select, table, textarea } from '../layout.ts';
import { type FormState, stateOf, type View } from '../view.ts';

const AccountsQuery = Type.Object(
  {
    ...AccountListQuery.properties,
    q: Type.Optional(Type.String({ maxLength: 600, description: 'An id to go to, or metadata[key]=value.' })),
  },
  { additionalProperties: false },
);
type AccountsQuery = Static<typeof AccountsQuery>;

/** `metadata[key]=value`, or just `key=value`, typed into the search box. */
const METADATA_SEARCH = /^(?:metadata\[([^[\]]+)\]|([^[\]=\s][^[\]=]*))=(.*)$/;

/** Where an id typed into the search box leads. */
const SEARCHABLE: [RegExp, string][] = [
  [/^acct_/, '/dashboard/accounts/'],
  [/^tr_/, '/dashboard/transfers/'],
  [/^evt_/, '/dashboard/events/'],
  [/^we_/, '/dashboard/webhooks/'],
  [/^pay_/, '/dashboard/payments/'],
  [/^ext_/, '/dashboard/external-accounts/'],
];

/** The dashboard page of an id, when it has one. */
export function pageOf(id: string): string | undefined {
  const target = SEARCHABLE.find(([prefix]) => prefix.test(id));
  return target === undefined ? undefined : `${target[1]}${encodeURIComponent(id)}`;
}

const SYSTEM_NAMES = {
  funding: 'Sandbox funding',
  clearing_ach: 'ACH clearing',
  clearing_wire: 'Wire clearing',
  clearing_rtp: 'RTP clearing',
} as const;

/**
 * Whether a transfer moves a payment's money (docs/api.md#bank-account-numbers-and-payments): one side is a rail's
 * clearing account. It settles, returns or is canceled with its payment, never posted, voided or reversed by hand.
 */
export const movesWithPayment = (t: { from_account_id: string; to_account_id: string }) =>
  [t.from_account_id, t.to_account_id].some((id) => systemPurposeOf(id)?.startsWith('clearing_'));

/**
 * An account as people name it: its nickname (when it has one) with its id beside it, linked to its page; a system
 * account (the sandbox's funding, a rail's clearing account) by what it is, with no page of its own.
 */
export function accountName(a: Pick<Account, 'id' | 'nickname'>): Html {
  const system = systemPurposeOf(a.id);
  if (system !== undefined) return html`<strong class="nickname">${SYSTEM_NAMES[system]}</strong> <code>${a.id}</code>`;
  const id = html`<a href="/dashboard/accounts/${a.id}"><code>${a.id}</code></a>`;
  return a.nickname ? html`<strong class="nickname">${a.nickname}</strong> ${id}` : id;
}

export function accountRow(a: Account, now: Date): Html {
  return html`<tr><td>${accountName(a)}${a.kyb ? html`<br><span class="hint">${a.kyb.legal_name}</span>` : ''}</td>
<td>${badge(a.status)}</td><td>${a.country}</td><td class="num">${money(a.available_balance.amount, a.available_balance.currency)}</td>
<td>${time(a.created_at, now)}</td></tr>`;
}

/** The metadata filter in force, and the way back to every account. */
function metadataFilter(metadata: Record<string, string> | undefined, status: string | undefined): Html {
  const pairs = Object.entries(metadata ?? {});
  if (pairs.length === 0) return html``;
  const all = status ? `/dashboard/accounts?status=${encodeURIComponent(status)}` : '/dashboard/accounts';
  return html`<p class="active-filter">Accounts whose metadata has ${pairs.map(([k, v], i) => html`${i > 0 ? ' and ' : ''}<code>${k}</code> = <code>${v}</code>`)} · <a href="${all}">clear</a></p>`;
}

/** Accounts: filtered by status or metadata, searched by id, paged; and the form that opens one. */
export function accountsPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const countries = [...ctx.deps.config.SUPPORTED_COUNTRIES].sort();

  async function accountsPage(view: View, query: AccountsQuery, state?: FormState): Promise<Html> {
    const { q, ...listQuery } = query;
    const list = await ctx.read(view.principal, ops.listAccounts, { query: listQuery });
    const create = stateOf(state, 'create');
    const statuses = ['', 'active', 'frozen', 'closed'].map(
      (s) =>
        html`<option value="${s}"${s === (query.status ?? '') ? html` selected` : ''}>${s || 'Any status'}</option>`,
    );
    return page(
      view,
      'Accounts',
      html`<h1>Accounts</h1>
<form method="get" action="/dashboard/accounts" class="filters" role="search">
<div class="field"><label for="f-q">Id or metadata</label><input id="f-q" name="q" type="search" value="${q ?? ''}" placeholder="acct_…, tr_…, or metadata[key]=value" spellcheck="false" aria-describedby="f-q-hint"></div>
${Object.entries(query.metadata ?? {}).map(([k, v]) => html`<input type="hidden" name="metadata[${k}]" value="${v}">`)}
<div class="field"><label for="f-status">Status</label><select id="f-status" name="status">${statuses}</select></div>
<button type="submit">Search</button>
<p class="hint" id="f-q-hint">An id goes straight to its page; <code>key=value</code> lists the accounts whose metadata has it.</p></form>
${metadataFilter(query.metadata, query.status)}
${table(
  'Accounts',
  ['Account', 'Status', 'Country', 'Available', 'Created'],
  list.data.map((a) => accountRow(a, view.now)),
  empty(
    query.metadata ? 'No account has this metadata' : query.status ? `No ${query.status} accounts` : 'No accounts yet',
    html`Open one below, or with <code>POST /v1/fintech/accounts</code>.`,
  ),
)}
${pager(
  '/dashboard/accounts',
  { status: query.status, metadata: query.metadata },
  list.data.map((a) => a.id),
  listQuery,
  list.has_more,
)}
${
  view.can(ops.createAccount) &&
  html`<section class="card" id="create"><h2 id="create-h">Open an account</h2>${problemSummary(create)}
<form method="post" action="/dashboard/accounts">${formFields(view)}<input type="hidden" name="type" value="business">
${select({ name: 'country', label: 'Country', state: create, value: countries.includes('US') ? 'US' : countries[0], options: countries.map((c) => [c, `${c} · ${currencyOf(c)?.code ?? ''}`]), hint: 'The account holds money in this country’s currency.' })}
${input({ name: 'nickname', label: 'Nickname (optional)', state: create, hint: 'A name for people, such as Payroll: shown beside the id.', attrs: html` autocomplete="off"` })}
<fieldset><legend>Business verification (optional; both or neither)</legend>
${input({ name: 'kyb.legal_name', label: 'Legal name', state: create })}
${input({ name: 'kyb.ein', label: 'EIN', state: create, hint: 'Like 12-3456789. Stored encrypted; only its last four digits are ever shown.', attrs: html` autocomplete="off" inputmode="numeric"` })}
</fieldset>
${textarea({ name: 'metadata', label: 'Metadata (optional)', state: create, hint: 'One key=value a line: your own references, such as customer_id=4522. Never secrets.', attrs: html` spellcheck="false"` })}
<button type="submit" class="primary">Open account</button></form></section>`
}`,
    );
  }

  r.get('/accounts', { schema: { hide: true, querystring: AccountsQuery } }, async (request, reply) => {
    const q = request.query.q?.trim();
    if (q) {
      const pair = METADATA_SEARCH.exec(q);
      if (pair !== null) {
        // The API's own filter, in the address: the list below reads it, and its pages keep it.
        const query = new URLSearchParams({ [`metadata[${(pair[1] ?? pair[2])!.trim()}]`]: pair[3]!.trim() });
        return reply.redirect(`/dashboard/accounts?${query}`, 303);
      }
      const target = pageOf(q);
      if (target === undefined)
        throw new ApiError(
          'parameter_invalid',
          'Search takes an id (acct_…, tr_…, evt_…, we_…, pay_…, ext_…) or metadata as metadata[key]=value.',
          { param: 'q' },
        );
      return reply.redirect(target, 303);
    }
    return sendHtml(reply, await accountsPage(await ctx.view(request), request.query));
  });

  r.post('/accounts', { schema: { hide: true } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'create',
      build: async (fields, _principal) => {
        const legalName = optional(fields, 'kyb.legal_name');
        const ein = optional(fields, 'kyb.ein');
        const kyb =
          legalName === undefined && ein === undefined
            ? {}
            : {
                kyb: {
                  ...(ein === undefined ? {} : { ein: ein.trim() }),
                  ...(legalName === undefined ? {} : { legal_name: legalName }),
                },
              };
        const metadata = metadataField(fields, 'metadata');
        const nickname = optional(fields, 'nickname');
        const body = {
          type: fields.get('type') ?? 'business',
          country: fields.get('country') ?? '',
          ...(nickname === undefined ? {} : { nickname }),
          ...kyb,
          ...(metadata === undefined ? {} : { metadata }),
        };
        return { operation: ops.createAccount, body };
      },
      done: ({ value }) => `/dashboard/accounts/${value.id}?done=created`,
      again: (view, state) => accountsPage(view, {}, state),
    }),
  );
}
