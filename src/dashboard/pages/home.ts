import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { listEvents } from '../../modules/events/index.ts';
import { ops } from '../../ops.ts';
import type { OperationRef } from '../../platform/operations/operation.ts';
import type { AccountList } from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { badge, money, time } from '../format.ts';
import { sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { empty, page, table } from '../layout.ts';
import { accountCounts, countOf, failingEndpoints, totalsByCurrency } from '../summary.repository.ts';
import type { View } from '../view.ts';
import { accountName } from './accounts.ts';
import { eventRows } from './events.ts';

const NoQuery = Type.Object({}, { additionalProperties: false });
const NEWEST = 5;

const accounts = (counts: Record<string, number> | null) =>
  counts === null ? 0 : (counts.active ?? 0) + (counts.frozen ?? 0) + (counts.closed ?? 0);

/** The newest accounts with both balances, and where the key reads statements, a link to each one's. */
function newestAccounts(view: View, list: AccountList): Html {
  const statements = view.can(ops.retrieveAccountStatement);
  const rows = list.data.map(
    (a) => html`<tr><td>${accountName(a)}</td><td>${badge(a.status)}</td>
<td class="num">${money(a.available_balance.amount, a.available_balance.currency)}</td><td class="num">${money(a.current_balance.amount, a.current_balance.currency)}</td>
${statements ? html`<td><a href="/dashboard/accounts/${a.id}#statement">Statement<span class="visually-hidden"> of ${a.nickname ?? a.id}</span></a></td>` : ''}</tr>`,
  );
  const head = ['Account', 'Status', 'Available', 'Current', ...(statements ? ['Statement'] : [])];
  return html`<section><h2 id="accounts-h">Newest accounts</h2>
${table('Newest accounts', head, rows, empty('No accounts yet', 'Accounts appear here once opened.'))}
${list.has_more ? html`<p><a href="/dashboard/accounts">All accounts →</a></p>` : ''}</section>`;
}

/**
 * A key that reads transactions but not accounts (a balances-only key) cannot list the accounts: it looks one up by
 * its id, and the account's page shows what it may read (balances, statement, transactions).
 */
function lookup(view: View): Html | string {
  if (view.can(ops.listAccounts) || !view.can(ops.retrieveAccountStatement)) return '';
  return html`<section class="card" id="lookup"><h2>Balances and statements</h2>
<p>This key reads accounts’ transactions, balances and statements, but not the list of accounts: give an account’s id.</p>
<form method="get" action="/dashboard/accounts" class="inline-form">
<div class="field"><label for="f-q">Account id</label><input id="f-q" name="q" type="text" required placeholder="acct_…" autocomplete="off" spellcheck="false" aria-describedby="f-q-hint"><p class="hint" id="f-q-hint">Such as acct_01M7Z2C4H2XK8P3Q9VJ6T5N0AB.</p></div>
<button type="submit" class="primary">Open</button></form></section>`;
}

/** Home: the org and mode, counts, what the accounts hold per currency, the latest events, failing endpoints. */
export function homePage(scope: FastifyInstance, ctx: Ctx): void {
  const db = ctx.deps.database.db;
  scope.get('/', { schema: { hide: true, querystring: NoQuery } }, async (request, reply) => {
    const view = await ctx.view(request);
    const owner = view.principal;
    await ctx.deps.caughtUp();
    // Each part only when the key may read what it summarises (docs/api.md#restricted-keys).
    const when = <T>(operation: OperationRef, read: () => Promise<T>) => (view.can(operation) ? read() : null);
    const [counts, totals, transfers, endpoints, failing, events] = await Promise.all([
      when(ops.listAccounts, () => accountCounts(db, owner)),
      when(ops.listAccounts, () => totalsByCurrency(db, owner)),
      when(ops.listTransfers, () => countOf(db, 'transfers', owner)),
      when(ops.listWebhookEndpoints, () => countOf(db, 'webhook_endpoints', owner)),
      when(ops.listWebhookEndpoints, () => failingEndpoints(db, owner)),
      when(ops.listEvents, () => listEvents(db, owner, { limit: 5 })),
    ]);
    // A key that reads accounts and their statements (an accountant's): the newest accounts, each a statement away.
    const newest =
      view.can(ops.listAccounts) && accounts(counts) > 0
        ? await ctx.read(owner, ops.listAccounts, { query: { limit: NEWEST } })
        : null;
    const stat = (label: string, value: number | null, href: string, detail = '') =>
      value === null
        ? ''
        : html`<a class="stat" href="${href}"><span class="stat-value">${value.toLocaleString('en-US')}</span>
<span class="stat-label">${label}</span>${detail ? html`<span class="hint">${detail}</span>` : ''}</a>`;
    const main = html`<h1>Overview</h1>
${
  counts !== null && accounts(counts) === 0 && view.can(ops.createAccount)
    ? html`<div class="callout"><p><strong>Welcome.</strong> This ${owner.mode} organisation has no accounts yet.</p>
<p><a class="button primary" href="/dashboard/accounts#create">Create your first account</a></p></div>`
    : ''
}
<section><h2 id="counts-h" class="visually-hidden">Counts</h2><div class="stats">
${stat('Accounts', counts && accounts(counts), '/dashboard/accounts', `${counts?.active ?? 0} active · ${counts?.frozen ?? 0} frozen · ${counts?.closed ?? 0} closed`)}
${stat('Transfers', transfers, '/dashboard/transfers')}
${stat('Webhook endpoints', endpoints, '/dashboard/webhooks')}
</div></section>
${
  totals &&
  html`<section><h2 id="totals-h">Balances by currency</h2>
${table(
  'Balances by currency',
  ['Currency', 'Held in accounts'],
  totals.map((t) => html`<tr><td>${t.currency}</td><td class="num">${money(t.total, t.currency)}</td></tr>`),
  empty('No money yet', 'Totals appear once an account holds a balance.'),
)}
</section>`
}
${newest && newestAccounts(view, newest)}
${lookup(view)}
${
  failing &&
  html`<section><h2 id="failing-h">Failing webhook endpoints</h2>
${table(
  'Failing webhook endpoints',
  ['Endpoint', 'Status', 'Failing since'],
  failing.map(
    (e) =>
      html`<tr><td><a href="/dashboard/webhooks/${e.id}">${e.url}</a></td><td>${badge(e.status)} ${e.disabled_reason ?? ''}</td><td>${time(e.failing_since === null ? null : `${e.failing_since.slice(0, 16)}Z`, view.now)}</td></tr>`,
  ),
  empty('All endpoints are delivering', 'Endpoints whose deliveries keep failing show up here.'),
)}
</section>`
}
${
  events &&
  html`<section><h2 id="events-h">Latest events</h2>
${table('Latest events', ['Event', 'Type', 'Sequence', 'When'], eventRows(events.data, view.now), empty('No events yet', 'Every change (an account created, a transfer, a key revoked) is recorded here as an event.'))}
<p><a href="/dashboard/events">All events →</a></p></section>`
}`;
    return sendHtml(reply, page(view, 'Overview', main));
  });
}
