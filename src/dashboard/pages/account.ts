import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { ops } from '../../ops.ts';
import type { AnyWriteDeclaration } from '../../platform/operations/operation.ts';
import { type Account, AccountIdParams, type Transaction, TransactionListQuery } from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { badge, money, time } from '../format.ts';
import { amountField, fieldsOf, optional, sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { empty, flash, metadataList, page, pager, table } from '../layout.ts';
import { type EntryContext, entryContexts } from '../statement.repository.ts';
import type { FormState, View } from '../view.ts';
import { label, lifecycleForms, nicknameForm, sandboxForms } from './account-forms.ts';
import { accountNumberRoutes, accountNumbersSection } from './account-numbers.ts';
import { balancesAndStatement, PeriodProps, statementRoutes } from './account-statement.ts';
import { nicknamesOf, transferRow } from './transfers.ts';

const DONE = {
  created: 'Account opened.',
  frozen: 'Account frozen: it takes no debit and no credit until it is unfrozen.',
  unfrozen: 'Account unfrozen.',
  closed: 'Account closed.',
  deposited: 'Deposit simulated.',
  withdrawn: 'Withdrawal simulated.',
  named: 'Nickname saved.',
  number_disabled: 'Account number disabled: payments sent to it are returned (R02).',
  unnamed: 'Nickname cleared.',
} as const;
type Done = keyof typeof DONE;
const PageQuery = Type.Object(
  {
    ...TransactionListQuery.properties,
    ...PeriodProps,
    done: Type.Optional(Type.Union(Object.keys(DONE).map((k) => Type.Literal(k as Done)))),
  },
  { additionalProperties: false },
);
type PageQuery = Static<typeof PageQuery>;
const _NoBody = Type.Object({}, { additionalProperties: false });
/** A transaction's source: a transfer, or a reversal with the transfer it reverses, linked to that transfer's page. */
function sourceCell(t: Transaction, more: EntryContext | undefined): Html {
  const kind = t.source.type.replace(/_/g, ' ');
  const link = (id: string, text: Html) => html`<br><a href="/dashboard/transfers/${id}">${text}</a>`;
  if (t.source.type === 'transfer') return html`${kind}${link(t.source.id, html`<code>${t.source.id}</code>`)}`;
  if (t.source.type === 'transfer_reversal' && more?.reverses)
    return html`${kind} <code>${t.source.id}</code>${link(more.reverses, html`of <code>${more.reverses}</code>`)}`;
  return html`${kind}`;
}

/** What a key without `accounts: read` sees above an account's balances: that the rest is not its to read. */
const UNREADABLE = html`<p class="status-note">This key reads this account’s transactions, balances and statements;
its status, nickname and details need <code>accounts: read</code>.</p>`;

/**
 * One account: both balances, status and why, its transactions with the running balance, and what can be done.
 * Each part only when the key may read it (docs/api.md#restricted-keys): the account itself needs `accounts: read`,
 * its transactions, balances and statement `transactions: read`, as the API's reads do; either opens the page.
 */
export async function accountPage(
  ctx: Ctx,
  view: View,
  id: string,
  query: PageQuery,
  state?: FormState,
): Promise<Html> {
  const canTxns = view.can(ops.listAccountTransactions);
  if (!view.can(ops.retrieveAccount) && !canTxns) view.need(ops.retrieveAccount);
  const a = view.can(ops.retrieveAccount)
    ? await ctx.read(view.principal, ops.retrieveAccount, { params: { id } })
    : null;
  const { done, at, from, to, ...listQuery } = query;
  const [txns, held] = await Promise.all([
    canTxns ? ctx.read(view.principal, ops.listAccountTransactions, { params: { id }, query: listQuery }) : null,
    view.can(ops.listTransfers)
      ? ctx.read(view.principal, ops.listTransfers, {
          query: { account_id: id, status: 'pending', limit: 100 },
        })
      : null,
  ]);
  const [contexts, names] = await Promise.all([
    entryContexts(
      ctx.deps.database.db,
      view.principal,
      id,
      (txns?.data ?? []).filter((t) => t.source.type === 'transfer_reversal').map((t) => t.id),
    ),
    nicknamesOf(ctx, view, held?.data ?? []),
  ]);
  const rows = (txns?.data ?? []).map(
    (
      t,
    ) => html`<tr><td>${time(t.created_at, view.now)}</td><td>${t.description ?? html`<span class="muted">—</span>`}</td>
<td>${sourceCell(t, contexts.get(t.id))}</td>
<td class="num">${money(t.amount, t.currency, true)}</td><td class="num">${money(t.balance_after, t.currency)}</td></tr>`,
  );
  const periods = view.can(ops.retrieveAccountStatement)
    ? await balancesAndStatement(ctx, view, id, { at, from, to })
    : '';
  const transactions =
    txns &&
    html`<section><h2>Transactions</h2>
${table('Transactions', ['When', 'Description', 'Source', 'Amount', 'Balance after'], rows, empty('No transactions yet', view.principal.mode === 'sandbox' ? 'Simulate a deposit below to put test money in.' : 'Money moved in or out shows up here.'))}
${pager(
  `/dashboard/accounts/${id}`,
  {},
  txns.data.map((t) => t.id),
  listQuery,
  txns.has_more,
)}</section>`;
  if (a === null) return page(view, id, html`<h1><code>${id}</code></h1>${UNREADABLE}${periods}${transactions}`);
  const numbers = await accountNumbersSection(ctx, view, a, state);
  const details = a.status_details;
  return page(
    view,
    a.nickname ? `${a.nickname} · ${a.id}` : a.id,
    html`${view.can(ops.listAccounts) ? html`<p class="crumbs"><a href="/dashboard/accounts">Accounts</a> /</p>` : ''}
<h1>${a.nickname ? html`<span class="nickname">${a.nickname}</span> ` : ''}<code>${a.id}</code> ${badge(a.status)}</h1>${flash(done === undefined ? undefined : DONE[done])}
${details ? html`<p class="status-note">${a.status === 'closed' ? 'Closed' : 'Frozen'} for <strong>${label(details.reason)}</strong> by ${details.actor === 'operator' ? 'the operator' : 'an API key'}${details.note ? html`: “${details.note}”` : ''}.</p>` : ''}
<div class="stats"><div class="stat"><span class="stat-value">${money(a.available_balance.amount, a.available_balance.currency)}</span><span class="stat-label">Available balance</span><span class="hint">what can be spent now</span></div>
<div class="stat"><span class="stat-value">${money(a.current_balance.amount, a.current_balance.currency)}</span><span class="stat-label">Current balance</span><span class="hint">what the ledger holds</span></div></div>
<dl class="facts"><dt>Country</dt><dd>${a.country} · ${a.available_balance.currency}</dd><dt>Opened</dt><dd>${time(a.created_at, view.now)}</dd>
${a.closed_at ? html`<dt>Closed</dt><dd>${time(a.closed_at, view.now)}</dd>` : ''}
<dt>Nickname</dt><dd>${a.nickname ?? html`<span class="muted">none</span>`}</dd><dt>Metadata</dt><dd>${metadataList(a.metadata)}</dd>
<dt>Business</dt><dd>${a.kyb ? html`${a.kyb.legal_name} · EIN ending ${a.kyb.ein_last4}` : html`<span class="muted">not verified</span>`}</dd></dl>
<p class="actions">${view.can(ops.createTransfer) && html`<a class="button" href="/dashboard/transfers/new?from_account_id=${a.id}">Send money from this account</a>`}
${held && html`<a class="button" href="/dashboard/transfers?account_id=${a.id}">Its transfers</a>`}
${view.can(ops.createPayment) && a.status === 'active' && a.available_balance.currency === 'USD' ? html`<a class="button" href="/dashboard/payments/new?account_id=${a.id}">Send a payment</a>` : ''}
${view.can(ops.listPayments) ? html`<a class="button" href="/dashboard/payments?account_id=${a.id}">Its payments</a>` : ''}</p>
${
  held &&
  html`<section><h2>Pending transfers</h2>
${table(
  'Pending transfers',
  ['Transfer', 'From', 'To', 'Amount', 'Status', 'Created'],
  held.data.map((t) => transferRow(t, view.now, names)),
  empty(
    'Nothing held',
    'A transfer made pending holds its amount on the sender until it is posted, voided or expires.',
  ),
)}
${held.has_more ? html`<p><a href="/dashboard/transfers?account_id=${a.id}&amp;status=pending">All pending transfers →</a></p>` : ''}</section>`
}
${numbers}${transactions}${periods}
${view.can(ops.updateAccount) ? nicknameForm(view, a, state) : ''}${sandboxForms(view, a, state)}${lifecycleForms(view, a, state)}`,
  );
}

export function accountPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const params = AccountIdParams;

  r.get('/accounts/:id', { schema: { hide: true, params, querystring: PageQuery } }, async (request, reply) =>
    sendHtml(reply, await accountPage(ctx, await ctx.view(request), request.params.id, request.query)),
  );

  /** One form → one API operation on the account, then back to its page. */
  function action(
    name: string,
    operation: AnyWriteDeclaration,
    done: Done | ((fields: URLSearchParams) => Done),
    build: (fields: URLSearchParams, account: Account) => Record<string, unknown>,
  ) {
    r.post(`/accounts/:id/${name}`, { schema: { hide: true, params } }, (request, reply) =>
      ctx.submit(request, reply, {
        name,
        build: async (fields, principal) => {
          const params = { id: request.params.id };
          const account = await ctx.read(principal, ops.retrieveAccount, { params });
          return { operation, params, body: build(fields, account) };
        },
        done: () =>
          `/dashboard/accounts/${request.params.id}?done=${typeof done === 'string' ? done : done(fieldsOf(request))}`,
        again: (view, state) => accountPage(ctx, view, request.params.id, {}, state),
      }),
    );
  }

  const reasonAndNote = (fields: URLSearchParams) => ({
    reason: fields.get('reason') ?? '',
    ...(optional(fields, 'note') === undefined ? {} : { note: fields.get('note') }),
  });
  const amountBody = (fields: URLSearchParams, account: Account) => ({
    amount: amountField(fields, 'amount', account.available_balance.currency),
    ...(optional(fields, 'description') === undefined ? {} : { description: fields.get('description') }),
  });
  action('freeze', ops.freezeAccount, 'frozen', reasonAndNote);
  action('unfreeze', ops.unfreezeAccount, 'unfrozen', () => ({}));
  action('close', ops.closeAccount, 'closed', reasonAndNote);
  action('deposit', ops.simulateDeposit, 'deposited', amountBody);
  action('withdraw', ops.simulateWithdrawal, 'withdrawn', amountBody);
  // updateAccount takes the nickname alone; "" clears it (docs/api.md#metadata-your-own-references).
  const nickname = (fields: URLSearchParams) => (fields.get('nickname') ?? '').trim();
  action(
    'nickname',
    ops.updateAccount,
    (f) => (nickname(f) === '' ? 'unnamed' : 'named'),
    (f) => ({ nickname: nickname(f) }),
  );
  statementRoutes(scope, ctx);
  accountNumberRoutes(scope, ctx, (view, id, state) => accountPage(ctx, view, id, {}, state));
}
