import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ops } from '../../ops.ts';
import { allows, needs } from '../../platform/auth/permissions.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { AccountIdParams } from '../../products/fintech/index.ts';
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

/**
 * A moment typed in the page's one form, UTC and 24-hour (`2026-11-25 10:04:31`, or with a `T`; seconds optional),
 * as a time the API takes; anything else as typed, for the API to refuse beside the field. A minute alone stays the
 * API's minute form, read as the API reads it (the end of it for a balance, the start of it for a statement).
 */
export const apiTimeOf = (value: string) => {
  const typed = value.trim();
  return /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?$/.test(typed) ? `${typed.replace(' ', 'T')}Z` : typed;
};

/** A moment as the page's fields and labels show it: `2026-11-25 10:04:31`, 24-hour UTC (milliseconds if any). */
export function shownMoment(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const text = at.toISOString();
  const ms = text.slice(19, 23) === '.000' ? '' : text.slice(19, 23);
  // A time the API gave to the minute is shown to the minute: its seconds are not known.
  if (/T\d\d:\d\dZ$/.test(iso)) return `${text.slice(0, 10)} ${text.slice(11, 16)}`;
  return `${text.slice(0, 10)} ${text.slice(11, 19)}${ms}`;
}

/**
 * This month: from the 1st at 00:00 UTC to the 1st of next month, which the API reads as now
 * (docs/api.md#balances-over-time-and-statements). In datetime-local's form, to the second.
 */
export function defaultPeriod(now: Date): { from: string; to: string } {
  const first = (month: number) => new Date(Date.UTC(now.getUTCFullYear(), month, 1)).toISOString().slice(0, 19);
  return { from: first(now.getUTCMonth()), to: first(now.getUTCMonth() + 1) };
}

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

/** The hint under a moment field: the form it takes. */
const MOMENT_HINT = 'UTC, 24-hour: 2026-11-25 10:04:31 (seconds optional).';

/** The balances at a chosen moment (now by default) and a statement for a chosen period (this month by default). */
export async function balancesAndStatement(ctx: Ctx, view: View, id: string, q: Period): Promise<Html> {
  const params = { id };
  const period = { ...defaultPeriod(view.now), ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}) };
  const asked = { from: apiTimeOf(period.from), to: apiTimeOf(period.to) };
  const [b, s] = await Promise.all([
    attempt(() =>
      ctx.read(view.principal, ops.retrieveAccountBalances, {
        params,
        query: q.at ? { at: apiTimeOf(q.at) } : {},
      }),
    ),
    attempt(() => ctx.read(view.principal, ops.retrieveAccountStatement, { params, query: asked })),
  ]);
  const refused = (form: string, values: Record<string, string>, result: unknown): FormState | undefined =>
    result instanceof ApiError ? { form, values, error: result, requestId: view.requestId } : undefined;
  const bState = refused('balances', { at: q.at ?? '' }, b);
  const sState = refused('statement', period, s);
  const self = `/dashboard/accounts/${id}`;
  const count = s instanceof ApiError ? 0 : s.credits.count + s.debits.count;
  const field = (name: string, label: string, state: FormState | undefined, value: string, hint: string) =>
    input({
      name,
      label,
      state,
      value: state ? value : shownMoment(apiTimeOf(value)),
      hint,
      attrs: html` autocomplete="off" spellcheck="false" placeholder="YYYY-MM-DD HH:MM:SS"`,
    });
  // The moment the API used, to the second where its answer says it; else the one asked for (now, by default).
  const atAsked = q.at ? apiTimeOf(q.at) : `${view.now.toISOString().slice(0, 19)}Z`;
  const when = b instanceof ApiError ? '' : `${shownMoment(/T\d\d:\d\d:\d\d/.test(b.at) ? b.at : atAsked)} UTC`;
  return html`<section class="card" id="balances"><h2>Balances at a moment</h2>${problemSummary(bState)}
<form method="get" action="${self}#balances" class="inline-form">${hidden('from', q.from)}${hidden('to', q.to)}
${field('at', 'At (UTC)', bState, q.at ?? view.now.toISOString().slice(0, 19), `${MOMENT_HINT} A minute alone means the end of it.`)}
<button type="submit">Show balances</button></form>
${
  b instanceof ApiError
    ? ''
    : html`<div class="stats"><div class="stat"><span class="stat-value">${money(b.current_balance.amount, b.current_balance.currency)}</span><span class="stat-label">Current balance at ${when}</span></div>
<div class="stat"><span class="stat-value">${money(b.available_balance.amount, b.available_balance.currency)}</span><span class="stat-label">Available balance at ${when}</span><span class="hint">less what pending transfers held</span></div></div>`
}</section>
<section class="card" id="statement"><h2>Statement</h2>${problemSummary(sState)}
<form method="get" action="${self}#statement" class="inline-form">${hidden('at', q.at)}
${field('from', 'From (UTC)', sState, period.from, `${MOMENT_HINT} A minute alone means its start.`)}
${field('to', 'Up to, not including (UTC)', sState, period.to, MOMENT_HINT)}
<button type="submit">Show statement</button></form>
${
  s instanceof ApiError
    ? ''
    : html`<p class="hint">From ${shownMoment(s.from)} UTC up to ${shownMoment(s.to)} UTC, not including it.</p>
<dl class="facts statement"><dt>Opening balance</dt><dd>${money(s.opening_balance, s.currency)}</dd>
<dt>Credits</dt><dd>${money(s.credits.amount, s.currency)} <span class="hint">in ${s.credits.count} transaction${s.credits.count === 1 ? '' : 's'}</span></dd>
<dt>Debits</dt><dd>${money(s.debits.amount, s.currency)} <span class="hint">in ${s.debits.count} transaction${s.debits.count === 1 ? '' : 's'}</span></dd>
<dt>Closing balance</dt><dd>${money(s.closing_balance, s.currency)}</dd></dl>
${
  count > CSV_MAX_LINES
    ? html`<p class="status-note">This period has ${count} transactions; a download holds at most ${CSV_MAX_LINES}: choose a shorter period to download it.</p>`
    : html`<p><a class="button" href="${self}/statement.csv?${new URLSearchParams(asked).toString()}" download>Download CSV</a> <span class="hint">the opening balance, each transaction to the second with its counterparty, the closing balance</span></p>`
}`
}</section>`;
}

/** A moment of a file name: its date, and its time when not midnight (`2026-11-25`, `2026-11-25T103000`). */
const slug = (time: string) => {
  const iso = new Date(time).toISOString();
  return iso.slice(11, 19) === '00:00:00'
    ? iso.slice(0, 10)
    : `${iso.slice(0, 10)}T${iso.slice(11, 19).replace(/:/g, '')}`;
};

/** `statement-<nickname or id>-<from>-to-<to>.csv`; a nickname as typed (its characters; spaces become `-`). */
export function statementFileName(name: string, from: string, to: string): string {
  const safe =
    name
      .trim()
      .replace(/[\s/\\:*?"<>|\p{Cc}]+/gu, '-')
      .slice(0, 80) || 'account';
  return `statement-${safe}-${slug(from)}-to-${slug(to)}.csv`;
}

/** RFC 6266: an ASCII `filename` for old clients, and the UTF-8 one (RFC 8187) that keeps accents. */
export function contentDisposition(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\]/g, '');
  const utf8 = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
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
    const { id } = request.params;
    const [from, to] = [apiTimeOf(request.query.from), apiTimeOf(request.query.to)];
    // The transactions group's read, as the API's statement is (docs/api.md#restricted-keys); the nickname in the
    // file's name only when the key may also read the account.
    const csv = await statementCsv(ctx, principal, id, from, to);
    const nickname = allows(principal.permissions, needs('accounts', 'read'))
      ? (await ctx.read(principal, ops.retrieveAccount, { params: { id } })).nickname
      : null;
    const name = statementFileName(nickname ?? id, from, to);
    return reply.type('text/csv; charset=utf-8').header('content-disposition', contentDisposition(name)).send(csv);
  });
}
