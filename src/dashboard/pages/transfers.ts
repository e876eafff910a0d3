import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ops } from '../../ops.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { IdOf } from '../../platform/kit/schema.ts';
import { type Transfer, TransferListQuery } from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { badge, majorUnits, money, time } from '../format.ts';
import { amountField, metadataField, optional, sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { empty, formFields, input, page, pager, problemSummary, select, table, textarea } from '../layout.ts';
import { type FormState, stateOf, type View } from '../view.ts';
import { accountPicker, openAccounts, PICKER_MAX } from './account-picker.ts';
import { accountName } from './accounts.ts';

const NewQuery = Type.Object(
  { from_account_id: Type.Optional(IdOf('acct', { description: 'The account to send from.' })) },
  { additionalProperties: false },
);
const STATUSES = ['', 'pending', 'posted', 'voided', 'expired'];
const HOLDS: [string, string][] = [
  ['3600', 'an hour'],
  ['86400', 'a day'],
  ['604800', 'a week'],
  ['2592000', '30 days'],
];

/**
 * What a transfer moved, and what it held and gave back (docs/api.md, "Holding money"): a post of part of a hold
 * moves `posted_amount` and returns the rest; a void or an expiry moves nothing and returns all of it. A transfer
 * shows what it moved once resolved, never the amount it held.
 */
export function transferAmounts(t: Transfer): { shown: number; released: number } {
  const resolved = t.pending && t.status !== 'pending';
  return { shown: t.posted_amount ?? t.amount, released: resolved ? t.amount - (t.posted_amount ?? 0) : 0 };
}

/** Under the amount of a resolved hold: how much of it returned to the sender. */
export function releasedNote(t: Transfer): Html | string {
  const { released } = transferAmounts(t);
  if (released === 0) return '';
  if (released === t.amount) return html`released to the sender, nothing moved`;
  return html`of ${majorUnits(t.amount, t.currency)} held; ${majorUnits(released, t.currency)} released`;
}

/** The nicknames of accounts by id (an account without one is absent); empty when the key may not read accounts. */
export type Nicknames = ReadonlyMap<string, string>;

/**
 * The nicknames of the accounts these transfers move money between, read as the session (`retrieveAccount`) when
 * its key may read accounts (docs/api.md#restricted-keys); an account it cannot read keeps its id alone.
 */
export async function nicknamesOf(ctx: Ctx, view: View, transfers: Transfer[]): Promise<Nicknames> {
  if (!view.can(ops.retrieveAccount)) return new Map();
  const ids = [...new Set(transfers.flatMap((t) => [t.from_account_id, t.to_account_id]))];
  const named = await Promise.all(
    ids.map((id) =>
      ctx.read(view.principal, ops.retrieveAccount, { params: { id } }).then(
        (a) => [id, a.nickname] as const,
        () => [id, null] as const,
      ),
    ),
  );
  return new Map(named.filter((pair): pair is readonly [string, string] => pair[1] !== null));
}

/** A transfer's status as a person reads it: a posted transfer all of whose money went back reads `reversed`. */
export function transferStatus(t: Transfer): Html {
  if (t.status === 'posted' && t.reversed) return badge('reversed');
  const part = t.status === 'posted' && t.amount_reversed > 0;
  return html`${badge(t.status)}${part ? html`<br><span class="hint">partly reversed</span>` : ''}`;
}

const side = (id: string, names: Nicknames) => accountName({ id, nickname: names.get(id) ?? null });

export function transferRow(t: Transfer, now: Date, names: Nicknames = new Map()): Html {
  const note = releasedNote(t);
  return html`<tr><td><a href="/dashboard/transfers/${t.id}"><code>${t.id}</code></a>${t.description ? html`<br><span class="hint">${t.description}</span>` : ''}</td>
<td>${side(t.from_account_id, names)}</td>
<td>${side(t.to_account_id, names)}</td>
<td class="num">${money(transferAmounts(t).shown, t.currency)}${note ? html`<br><span class="hint">${note}</span>` : ''}</td><td>${transferStatus(t)}${t.status === 'pending' && t.expires_at ? html`<br><span class="hint">expires ${time(t.expires_at, now)}</span>` : ''}</td><td>${time(t.created_at, now)}</td></tr>`;
}

/** Transfers: the list (all, one account's, by status), and the form that makes one, at once or held as pending. */
export function transfersPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/transfers', { schema: { hide: true, querystring: TransferListQuery } }, async (request, reply) => {
    const view = await ctx.view(request);
    const query = request.query;
    const list = await ctx.read(view.principal, ops.listTransfers, { query });
    const names = await nicknamesOf(ctx, view, list.data);
    const statuses = STATUSES.map(
      (s) =>
        html`<option value="${s}"${s === (query.status ?? '') ? html` selected` : ''}>${s || 'Any status'}</option>`,
    );
    const main = html`<h1>Transfers</h1>
${view.can(ops.createTransfer) && html`<p class="actions"><a class="button primary" href="/dashboard/transfers/new">Make a transfer</a></p>`}
<form method="get" action="/dashboard/transfers" class="filters">${query.account_id ? html`<input type="hidden" name="account_id" value="${query.account_id}">` : ''}
<div class="field"><label for="f-status">Status</label><select id="f-status" name="status">${statuses}</select></div><button type="submit">Filter</button></form>
${query.account_id ? html`<p class="active-filter">Transfers from or to <a href="/dashboard/accounts/${query.account_id}"><code>${query.account_id}</code></a> · <a href="/dashboard/transfers">all transfers</a></p>` : ''}
${table(
  'Transfers',
  ['Transfer', 'From', 'To', 'Amount', 'Status', 'Created'],
  list.data.map((t) => transferRow(t, view.now, names)),
  empty(
    query.status ? `No ${query.status} transfers` : 'No transfers yet',
    'Move money between two accounts of the same currency with “Make a transfer”.',
  ),
)}
${pager(
  '/dashboard/transfers',
  { account_id: query.account_id, status: query.status, metadata: query.metadata },
  list.data.map((t) => t.id),
  query,
  list.has_more,
)}`;
    return sendHtml(reply, page(view, 'Transfers', main));
  });

  async function newPage(view: View, from: string | undefined, state?: FormState): Promise<Html> {
    view.need(ops.createTransfer);
    const s = stateOf(state, 'create');
    // The accounts to pick from, when the key may list them (docs/api.md#restricted-keys).
    const { accounts, more } = view.can(ops.listAccounts)
      ? await openAccounts(ctx, view.principal)
      : { accounts: [], more: false };
    const chosen = s?.values.from_account_id ?? from;
    const currency = accounts.find((a) => a.id === chosen)?.available_balance.currency;
    const pending = s ? s.values.pending === 'on' : false;
    const listed = more ? `The newest ${PICKER_MAX} open accounts.` : 'The open accounts, by nickname and id.';
    return page(
      view,
      'Make a transfer',
      html`<p class="crumbs"><a href="/dashboard/transfers">Transfers</a> /</p><h1>Make a transfer</h1>
<section class="card">${problemSummary(s)}<form method="post" action="/dashboard/transfers">${formFields(view)}
${accountPicker({ name: 'from_account_id', label: 'From account', state: s, value: from, hint: listed }, accounts, html` data-currency-to="transfer-currency"`)}
<p class="derived">Currency: <output id="transfer-currency" for="f-from_account_id">${currency ?? '—'}</output>
<span class="hint">the sending account’s; the receiving one must hold the same.</span></p>
${accountPicker({ name: 'to_account_id', label: 'To account', state: s, hint: 'Same currency as the sender.' }, accounts)}
${input({ name: 'amount', label: 'Amount', state: s, required: true, hint: 'In major units of the currency, e.g. 25.00', attrs: html` inputmode="decimal"` })}
${input({ name: 'description', label: 'Description (optional)', state: s })}
<fieldset><legend>Hold it first (optional)</legend>
<label class="check"><input type="checkbox" name="pending" value="on"${pending ? html` checked` : ''}> Pending: hold the amount on the sender until it is posted or voided</label>
${select({ name: 'expires_in_seconds', label: 'If neither, the hold expires after', state: s, value: '604800', options: HOLDS })}</fieldset>
${textarea({ name: 'metadata', label: 'Metadata (optional)', state: s, hint: 'One key=value a line: your own references. Never secrets.', attrs: html` spellcheck="false"` })}
<button type="submit" class="primary">Send</button></form></section>`,
    );
  }

  r.get('/transfers/new', { schema: { hide: true, querystring: NewQuery } }, async (request, reply) =>
    sendHtml(reply, await newPage(await ctx.view(request), request.query.from_account_id)),
  );

  r.post('/transfers', { schema: { hide: true } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'create',
      build: async (fields, principal) => {
        // The currency is the sender's (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations).
        const from = (fields.get('from_account_id') ?? '').trim();
        if (from === '')
          throw new ApiError('parameter_missing', 'Choose the account to send from.', { param: 'from_account_id' });
        const sender = await ctx.read(principal, ops.retrieveAccount, { params: { id: from } });
        const currency = sender.available_balance.currency;
        const pending = fields.get('pending') === 'on';
        const expires = fields.get('expires_in_seconds');
        const metadata = metadataField(fields, 'metadata');
        const body = {
          from_account_id: sender.id,
          to_account_id: (fields.get('to_account_id') ?? '').trim(),
          amount: amountField(fields, 'amount', currency),
          currency,
          ...(optional(fields, 'description') === undefined ? {} : { description: fields.get('description') }),
          ...(pending ? { pending: true } : {}),
          ...(pending && expires !== null && /^\d{1,8}$/.test(expires) ? { expires_in_seconds: Number(expires) } : {}),
          ...(metadata === undefined ? {} : { metadata }),
        };
        return { operation: ops.createTransfer, body };
      },
      done: ({ value }) => `/dashboard/transfers/${value.id}?done=created`,
      again: (view, state) => newPage(view, undefined, state),
    }),
  );
}
