import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/http/errors.ts';
import { type Account, AccountIdParams } from '../../products/fintech/accounts.schema.ts';
import type { AccountBalances, AccountStatement } from '../../products/fintech/balances.schema.ts';
import type { Ctx } from '../context.ts';
import { money } from '../format.ts';
import { type Html, html } from '../html.ts';
import { input, problemSummary } from '../layout.ts';
import { CSV_MAX_LINES, statementCsv } from '../statement-csv.ts';
import type { FormState, View } from '../view.ts';

const When = (description: string) => Type.Optional(Type.String({ maxLength: 40, description }));
/** The account page's moment and period, as its two GET forms send them (UTC; datetime-local's form). */
export const PeriodProps = { at: When('Balances at.'), from: When('Statement from.'), to: When('Statement to.') };
export interface Period {
  at?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** A datetime-local value (`2026-11-25T10:04`, read as UTC) as a time the API takes; anything else as typed. */
export const apiTimeOf = (value: string) => (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(value) ? `${value}Z` : value);

/**
 * This month: from the 1st at 00:00 UTC to the 1st of next month, which the API reads as now
 * (docs/api.md#balances-over-time-and-statements). In datetime-local's form, to the second.
 */
export function defaultPeriod(now: Date): { from: string; to: string } {
  const first = (month: number) => new Date(Date.UTC(now.getUTCFullYear(), month, 1)).toISOString().slice(0, 19);
  return { from: first(now.getUTCMonth()), to: first(now.getUTCMonth() + 1) };
}

/** A moment an answer echoes (`2026-11-25T10:04:31.123Z`) as the page shows it: `2026-11-25 10:04:31.123 UTC`. */
const moment = (iso: string) => iso.replace('T', ' ').replace('Z', ' UTC');

/** A read the API may refuse (a moment before the account was opened): its problem, to show beside the form. */
async function attempt<T>(read: () => Promise<T>): Promise<T | ApiError> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return error;
    throw error;
  }
}

const hidden = (name: string, value: string | undefined) =>
  value === undefined ? '' : html`<input type="hidden" name="${name}" value="${value}">`;

/** The balances at a chosen moment (now by default) and a statement for a chosen period (this month by default). */
export async function balancesAndStatement(ctx: Ctx, view: View, a: Account, q: Period): Promise<Html> {
  const params = { id: a.id };
  const period = { ...defaultPeriod(view.now), ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}) };
  const asked = { from: apiTimeOf(period.from), to: apiTimeOf(period.to) };
  const [b, s] = await Promise.all([
    attempt(() =>
      ctx.read<AccountBalances>(view.principal, 'retrieveAccountBalances', {
        params,
        query: q.at ? { at: apiTimeOf(q.at) } : {},
      }),
    ),
    attempt(() => ctx.read<AccountStatement>(view.principal, 'retrieveAccountStatement', { params, query: asked })),
  ]);
  const refused = (form: string, values: Record<string, string>, result: unknown): FormState | undefined =>
    result instanceof ApiError ? { form, values, error: result, requestId: view.requestId } : undefined;
  const bState = refused('balances', { at: q.at ?? '' }, b);
  const sState = refused('statement', period, s);
  const self = `/dashboard/accounts/${a.id}`;
  const count = s instanceof ApiError ? 0 : s.credits.count + s.debits.count;
  return html`<section class="card" id="balances"><h2>Balances at a moment</h2>${problemSummary(bState)}
<form method="get" action="${self}#balances" class="inline-form">${hidden('from', q.from)}${hidden('to', q.to)}
${input({ name: 'at', label: 'At (UTC)', type: 'datetime-local', state: bState, value: q.at ?? view.now.toISOString().slice(0, 16), hint: 'The end of that minute: every transaction in it counts.', attrs: html` step="60"` })}
<button type="submit">Show balances</button></form>
${
  b instanceof ApiError
    ? ''
    : html`<div class="stats"><div class="stat"><span class="stat-value">${money(b.current_balance.amount, b.current_balance.currency)}</span><span class="stat-label">Current balance at ${moment(b.at)}</span></div>
<div class="stat"><span class="stat-value">${money(b.available_balance.amount, b.available_balance.currency)}</span><span class="stat-label">Available then</span><span class="hint">less what pending transfers held</span></div></div>`
}</section>
<section class="card" id="statement"><h2>Statement</h2>${problemSummary(sState)}
<form method="get" action="${self}#statement" class="inline-form">${hidden('at', q.at)}
${input({ name: 'from', label: 'From (UTC)', type: 'datetime-local', state: sState, value: period.from, attrs: html` step="1"` })}
${input({ name: 'to', label: 'Up to, not including (UTC)', type: 'datetime-local', state: sState, value: period.to, attrs: html` step="1"` })}
<button type="submit">Show statement</button></form>
${
  s instanceof ApiError
    ? ''
    : html`<dl class="facts statement"><dt>Period</dt><dd>${moment(s.from)} up to, not including, ${moment(s.to)}</dd>
<dt>Opening balance</dt><dd>${money(s.opening_balance, s.currency)}</dd>
<dt>Credits</dt><dd>${money(s.credits.amount, s.currency)} <span class="hint">in ${s.credits.count} transaction${s.credits.count === 1 ? '' : 's'}</span></dd>
<dt>Debits</dt><dd>${money(s.debits.amount, s.currency)} <span class="hint">in ${s.debits.count} transaction${s.debits.count === 1 ? '' : 's'}</span></dd>
<dt>Closing balance</dt><dd>${money(s.closing_balance, s.currency)}</dd></dl>
${
  count > CSV_MAX_LINES
    ? html`<p class="status-note">This period has ${count} transactions; a download holds at most ${CSV_MAX_LINES}: choose a shorter period to download it.</p>`
    : html`<p><a class="button" href="${self}/statement.csv?${new URLSearchParams(asked).toString()}" download>Download CSV</a> <span class="hint">the opening balance, each transaction to the second, the closing balance</span></p>`
}`
}</section>`;
}

const CsvQuery = Type.Object(
  { from: Type.String({ maxLength: 40 }), to: Type.String({ maxLength: 40 }) },
  { additionalProperties: false },
);

/** The statement for a period as a CSV download (docs/dashboard.md#balances-and-statements). */
export function statementRoutes(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const schema = { hide: true, params: AccountIdParams, querystring: CsvQuery };
  r.get('/accounts/:id/statement.csv', { schema }, async (request, reply) => {
    const principal = request.principal!;
    const a = await ctx.read<Account>(principal, 'retrieveAccount', { params: { id: request.params.id } });
    const [from, to] = [apiTimeOf(request.query.from), apiTimeOf(request.query.to)];
    const csv = await statementCsv(ctx, principal, a, from, to);
    const name = `statement-${a.id}-${from.slice(0, 10)}-${to.slice(0, 10)}.csv`;
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(csv);
  });
}
