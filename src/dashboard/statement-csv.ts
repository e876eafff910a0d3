import type { Principal } from '../platform/auth/principal.ts';
import { ApiError } from '../platform/http/errors.ts';
import type { Account } from '../products/fintech/accounts.schema.ts';
import type { AccountStatement } from '../products/fintech/balances.schema.ts';
import type { Transaction, TransactionList } from '../products/fintech/transactions.schema.ts';
import type { Ctx } from './context.ts';
import { csvLine, inert } from './csv.ts';
import { decimal } from './format.ts';
import { entryTimes } from './statement.repository.ts';

/** The most transactions one download holds; a longer period is refused, asking for a shorter one. */
export const CSV_MAX_LINES = 10_000;
const PAGE = 100;

/** `2026-11-25T10:04:31.123Z` → `2026-11-25 10:04:31`, UTC to the second. */
const toSecond = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;

/** The period's transactions, through the API's list (`created[gte]`, `created[lt]`), oldest first, with full times. */
async function periodTransactions(ctx: Ctx, principal: Principal, id: string, from: string, to: string) {
  const lines: { t: Transaction; at: string }[] = [];
  let after: string | undefined;
  do {
    const query = { limit: PAGE, created: { gte: from, lt: to }, ...(after ? { starting_after: after } : {}) };
    const page = await ctx.read<TransactionList>(principal, 'listAccountTransactions', { params: { id }, query });
    const times = await entryTimes(
      ctx.deps.database.db,
      principal,
      id,
      page.data.map((t) => t.id),
    );
    for (const t of page.data) lines.push({ t, at: times.get(t.id) ?? t.created_at });
    after = page.has_more ? page.data.at(-1)?.id : undefined;
  } while (after !== undefined && lines.length <= CSV_MAX_LINES);
  return lines.reverse(); // the list is newest first; a statement reads in ledger order
}

/**
 * A statement as CSV (RFC 4180; docs/dashboard.md#balances-and-statements): a header, the opening balance, one line
 * per transaction in ledger order, the closing balance. Amounts in the major unit; descriptions made inert.
 */
export async function statementCsv(ctx: Ctx, principal: Principal, account: Account, from: string, to: string) {
  const params = { id: account.id };
  const s = await ctx.read<AccountStatement>(principal, 'retrieveAccountStatement', { params, query: { from, to } });
  const count = s.credits.count + s.debits.count;
  if (count > CSV_MAX_LINES)
    throw new ApiError(
      'parameter_invalid',
      `This period has ${count} transactions; a download holds at most ${CSV_MAX_LINES}: choose a shorter period.`,
      { param: 'to' },
    );
  // The moments the statement used (a `to` after now is now), so that the lines are exactly its transactions.
  const lines = await periodTransactions(ctx, principal, account.id, s.from, s.to);
  const c = s.currency;
  const bound = (text: string, at: string, balance: number) => csvLine([at, '', text, '', '', '', decimal(balance, c)]);
  const head = ['Time (UTC)', 'Transaction', 'Description', 'Source type', 'Source id'];
  const body = lines.map(({ t, at }) =>
    csvLine([
      toSecond(at),
      t.id,
      inert(t.description ?? ''),
      t.source.type,
      t.source.id,
      decimal(t.amount, c),
      decimal(t.balance_after, c),
    ]),
  );
  return [
    csvLine([...head, `Amount (${c})`, `Balance after (${c})`]),
    bound('Opening balance', toSecond(s.from), s.opening_balance),
    ...body,
    bound('Closing balance', toSecond(s.to), s.closing_balance),
  ].join('');
}
