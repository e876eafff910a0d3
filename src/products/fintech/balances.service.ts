import { readSnapshot } from '../../db/snapshot.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { parseTime } from '../../platform/http/created-filter.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { isIdOf } from '../../platform/kit/ids.ts';
import { apiTime } from '../../platform/kit/time.ts';
import { findAccount } from './accounts.repository.ts';
import { balanceBefore, heldBefore, periodTotals } from './balances.repository.ts';
import type { AccountBalances, AccountStatement, BalancesQuery, StatementQuery } from './balances.schema.ts';
import { toAmount } from './ledger/amount.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps } from './shared.ts';
import { EXPIRES_MAX } from './transfers.schema.ts';

const DAY_MS = 86_400_000;
const PERIOD_DAYS_MAX = 366;
const iso = (ms: number) => new Date(ms).toISOString();

async function ownAccount(deps: MoneyDeps, owner: Principal, id: string) {
  const account = isIdOf(ACCOUNT.prefix, id) ? await findAccount(deps.db, owner, id) : undefined;
  if (account === undefined) throw accountNotFound(id);
  return account;
}

/** A time the caller sent, as the instant its data ends before (exclusive), refused after now. */
function boundOf(param: string, value: string, now: number, inclusive: boolean) {
  const { at, span } = parseTime(param, value);
  // The API's minute form may name the current minute; an instant may not be in the future.
  if (at > now) throw new ApiError('parameter_invalid', `${param} must not be after now (${iso(now)}).`, { param });
  return { at, before: inclusive ? at + span : at };
}

/**
 * The balances at `at` (docs/api.md#balances-over-time-and-statements): the current balance after the account's last
 * entry at or before it, and what its pending transfers held at that instant. Two index reads, whatever the history.
 */
export async function balancesAt(
  deps: MoneyDeps,
  owner: Principal,
  accountId: string,
  query: BalancesQuery,
): Promise<AccountBalances> {
  const account = await ownAccount(deps, owner, accountId);
  const now = deps.clock().getTime();
  const { at, before } = query.at === undefined ? { at: now, before: now + 1 } : boundOf('at', query.at, now, true);
  const opened = Date.parse(account.created_at);
  if (before <= opened)
    throw new ApiError('parameter_invalid', `at must not be before the account was opened, at ${account.created_at}.`, {
      param: 'at',
    });
  const since = iso(before - EXPIRES_MAX * 1000 - 1);
  const [last, held] = await Promise.all([
    balanceBefore(deps.db, account.id, iso(before)),
    heldBefore(deps.db, { account_id: account.id, before: iso(before), since }),
  ]);
  const current = last === undefined ? 0 : toAmount(last.balance_after);
  const currency = account.currency;
  return {
    object: 'fintech.balances',
    account_id: account.id,
    at: apiTime(iso(at)),
    current_balance: { amount: current, currency },
    available_balance: { amount: current - toAmount(held.rows[0]?.held ?? 0), currency },
    last_transaction_id: last?.id ?? null,
    livemode: account.mode === 'live',
  };
}

/**
 * A statement for [from, to): the balance just before each end, and the credits and debits between, which add up to
 * the difference exactly, since each entry's `balance_after` is the one before it plus its amount, in time order.
 */
export async function statementOf(
  deps: MoneyDeps,
  owner: Principal,
  accountId: string,
  query: StatementQuery,
): Promise<AccountStatement> {
  const account = await ownAccount(deps, owner, accountId);
  const now = deps.clock().getTime();
  const from = boundOf('from', query.from, now, false).at;
  const to = boundOf('to', query.to, now, false).at;
  if (from >= to) throw new ApiError('parameter_invalid', 'to must be after from.', { param: 'to' });
  if (to - from > PERIOD_DAYS_MAX * DAY_MS)
    throw new ApiError(
      'parameter_invalid',
      `A statement covers at most ${PERIOD_DAYS_MAX} days; ask for a shorter period.`,
      {
        param: 'to',
      },
    );
  // One snapshot for the three reads, so that a write committing meanwhile is in all of them or in none.
  const [opening, closing, totals] = await readSnapshot(deps.db, (snapshot) =>
    Promise.all([
      balanceBefore(snapshot, account.id, iso(from)),
      balanceBefore(snapshot, account.id, iso(to)),
      periodTotals(snapshot, { account_id: account.id, from: iso(from), to: iso(to) }),
    ]),
  );
  const sums = totals.rows[0];
  return {
    object: 'fintech.statement',
    account_id: account.id,
    currency: account.currency,
    from: apiTime(iso(from)),
    to: apiTime(iso(to)),
    opening_balance: opening === undefined ? 0 : toAmount(opening.balance_after),
    closing_balance: closing === undefined ? 0 : toAmount(closing.balance_after),
    credits: { count: Number(sums?.credit_count ?? 0), amount: toAmount(sums?.credits ?? 0) },
    debits: { count: Number(sums?.debit_count ?? 0), amount: toAmount(sums?.debits ?? 0) },
    livemode: account.mode === 'live',
  };
}
