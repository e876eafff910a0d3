import { ops } from '../ops.ts';
import { allows, needs } from '../platform/auth/permissions.ts';
import type { Principal } from '../platform/auth/principal.ts';
import { ApiError } from '../platform/http/errors.ts';
import type { Transaction } from '../products/fintech/index.ts';
import type { Ctx } from './context.ts';
import { csvLine, inert } from './csv.ts';
import { decimal } from './format.ts';
import { type EntryContext, entryContexts } from './statement.repository.ts';

/** The most transactions one download holds; a longer period is refused, asking for a shorter one. */
export const CSV_MAX_LINES = 10_000;
const PAGE = 100;

/** `2026-11-25T10:04:31.123Z` → `2026-11-25 10:04:31`, UTC to the second. */
const toSecond = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;

/** The moment the API used, when its answer gives the seconds; else the one asked for (a minute means its start). */
const exact = (echoed: string, asked: string) =>
  new Date(/T\d\d:\d\d:\d\d/.test(echoed) ? echoed : asked).toISOString();

/** The period's transactions, through the API's list (`created[gte]`, `created[lt]`), oldest first, with context. */
async function periodTransactions(ctx: Ctx, principal: Principal, id: string, from: string, to: string) {
  const lines: { t: Transaction; more: EntryContext | undefined }[] = [];
  let after: string | undefined;
  do {
    const query = { limit: PAGE, created: { gte: from, lt: to }, ...(after ? { starting_after: after } : {}) };
    const page = await ctx.read(principal, ops.listAccountTransactions, { params: { id }, query });
    const ids = page.data.map((t) => t.id);
    const contexts = await entryContexts(ctx.deps.database.db, principal, id, ids);
    for (const t of page.data) lines.push({ t, more: contexts.get(t.id) });
    after = page.has_more ? page.data.at(-1)?.id : undefined;
  } while (after !== undefined && lines.length <= CSV_MAX_LINES);
  return lines.reverse(); // the list is newest first; a statement reads in ledger order
}

/** The columns of a statement's CSV (docs/dashboard.md#balances-and-statements), then the two amounts in `currency`. */
export const CSV_HEAD = [
  'Time (UTC)',
  'Transaction',
  'Description',
  'Source type',
  'Source id',
  'Counterparty account',
  'Counterparty nickname',
  'Reverses transfer',
];

/** A byte-order mark first, so that a spreadsheet reads the file as UTF-8 (accents, nicknames). */
export const BOM = '\uFEFF';

/**
 * A statement as CSV (RFC 4180; docs/dashboard.md#balances-and-statements): a byte-order mark, a header, the
 * opening balance, one line per transaction in ledger order, the closing balance. Amounts in the major unit;
 * descriptions and nicknames made inert. The counterparty's id and nickname are the accounts group's: a key that
 * may not read accounts (docs/api.md#restricted-keys) gets those two columns empty.
 */
export async function statementCsv(ctx: Ctx, principal: Principal, accountId: string, from: string, to: string) {
  const params = { id: accountId };
  const s = await ctx.read(principal, ops.retrieveAccountStatement, { params, query: { from, to } });
  const count = s.credits.count + s.debits.count;
  if (count > CSV_MAX_LINES)
    throw new ApiError(
      'parameter_invalid',
      `This period has ${count} transactions; a download holds at most ${CSV_MAX_LINES}: choose a shorter period.`,
      { param: 'to' },
    );
  // The moments the statement used (a `to` after now is now), so that the lines are exactly its transactions.
  const lines = await periodTransactions(ctx, principal, accountId, s.from, s.to);
  const accounts = allows(principal.permissions, needs('accounts', 'read'));
  const c = s.currency;
  const blank = CSV_HEAD.slice(3).map(() => '');
  const bound = (text: string, at: string, balance: number) =>
    csvLine([at, '', text, ...blank, '', decimal(balance, c)]);
  const body = lines.map(({ t, more }) => {
    const other = accounts ? more?.counterparty : undefined;
    return csvLine([
      toSecond(more?.at ?? t.created_at),
      t.id,
      inert(t.description ?? ''),
      t.source.type,
      t.source.id,
      other?.id ?? '',
      inert(other?.nickname ?? ''),
      more?.reverses ?? '',
      decimal(t.amount, c),
      decimal(t.balance_after, c),
    ]);
  });
  return (
    BOM +
    [
      csvLine([...CSV_HEAD, `Amount (${c})`, `Balance after (${c})`]),
      bound('Opening balance', toSecond(exact(s.from, from)), s.opening_balance),
      ...body,
      bound('Closing balance', toSecond(exact(s.to, to)), s.closing_balance),
    ].join('')
  );
}
