import type { Database, Db } from '../../db/database.ts';
import { readSnapshot } from '../../db/snapshot.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { parseTime } from '../../platform/http/created-filter.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { isIdOf } from '../../platform/kit/ids.ts';
import { findAccount } from './accounts.repository.ts';
import {
  balanceBefore,
  heldBefore,
  nextMovementFloor,
  paymentHeldBefore,
  periodTotals,
  sealBefore,
} from './balances.repository.ts';
import type { AccountBalances, AccountStatement, BalancesQuery, StatementQuery } from './balances.schema.ts';
import { plus, toAmount } from './ledger/amount.ts';
import { earliestNext } from './ledger/time.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps } from './shared.ts';
import { EXPIRES_MAX } from './transfers.schema.ts';

const DAY_MS = 86_400_000;
const PERIOD_DAYS_MAX = 366;
const iso = (ms: number) => new Date(ms).toISOString();

/** Reads, and the write that seals an account's past (`settledRead`). */
export type BalanceDeps = MoneyDeps & { write: Database['write'] };

async function ownAccount(deps: MoneyDeps, owner: Principal, id: string) {
  const account = isIdOf(ACCOUNT.prefix, id) ? await findAccount(deps.db, owner, id) : undefined;
  if (account === undefined) throw accountNotFound(id);
  return account;
}

/**
 * A time the caller sent, as the moment used (`at`) and the instant its data ends before (exclusive); one after now
 * is read as now. `inclusive`: the moment counts (a balance at it) and a minute form means its minute's last
 * millisecond; else (a statement's `to`) a minute form means its minute's start.
 */
function boundOf(param: string, value: string, now: number, inclusive: boolean) {
  const { at, span } = parseTime(param, value);
  const used = Math.min(inclusive ? at + span - 1 : at, now);
  return { at: used, before: inclusive ? used + 1 : used };
}

/**
 * Reads what the account held before `before` once no movement of it can still take an earlier time, so that the
 * answer is the same forever (docs/api.md#balances-over-time-and-statements). When its next movement may already not
 * be earlier (its last entry or its seal is at or after `before`, ledger/time.ts), the snapshot that read that
 * answers. Else the account is sealed up to `before` by a write of its own: on PostgreSQL the seal's UPDATE waits for
 * a movement of the account in flight (which holds its ledger row from before it takes its time until it commits),
 * and every later one reads the seal under the same lock; SQLite's single writer runs it between two writes. A
 * snapshot taken after the seal committed then holds every movement earlier than `before`, and no other ever will.
 */
async function settledRead<T>(
  deps: BalanceDeps,
  accountId: string,
  before: string,
  read: (snapshot: Db) => Promise<T>,
): Promise<T> {
  const first = await readSnapshot(deps.db, async (snapshot) => {
    const [floor, answer] = await Promise.all([nextMovementFloor(snapshot, { id: accountId }), read(snapshot)]);
    return { sealed: floor.rows[0] === undefined || earliestNext(floor.rows[0], '') >= before, answer };
  });
  if (first.sealed) return first.answer;
  await deps.write(async (trx) => sealBefore(trx, { id: accountId, before }));
  return readSnapshot(deps.db, read);
}

/**
 * The balances at `at` (docs/api.md#balances-over-time-and-statements): the current balance after the account's last
 * entry at or before it, and what its pending transfers held at that instant. Two index reads, whatever the history.
 */
export async function balancesAt(
  deps: BalanceDeps,
  owner: Principal,
  accountId: string,
  query: BalancesQuery,
): Promise<AccountBalances> {
  const account = await ownAccount(deps, owner, accountId);
  const now = (await deps.now(deps.db, owner)).getTime();
  const { at, before } = boundOf('at', query.at ?? iso(now), now, true);
  const opened = Date.parse(account.created_at);
  if (before <= opened)
    throw new ApiError('parameter_invalid', `at must not be before the account was opened, at ${account.created_at}.`, {
      param: 'at',
    });
  const since = iso(before - EXPIRES_MAX * 1000 - 1);
  const window = { account_id: account.id, before: iso(before), since };
  const [last, held, paymentsHeld] = await settledRead(deps, account.id, iso(before), (snapshot) =>
    Promise.all([
      balanceBefore(snapshot, account.id, iso(before)),
      heldBefore(snapshot, window),
      paymentHeldBefore(snapshot, window),
    ]),
  );
  const heldThen = plus(toAmount(held.rows[0]?.held ?? 0), toAmount(paymentsHeld.rows[0]?.held ?? 0));
  const current = last === undefined ? 0 : toAmount(last.balance_after);
  const currency = account.currency;
  return {
    object: 'fintech.balances',
    account_id: account.id,
    at: iso(at),
    current_balance: { amount: current, currency },
    available_balance: { amount: current - heldThen, currency },
    last_transaction_id: last?.id ?? null,
    livemode: account.mode === 'live',
  };
}

/**
 * A statement for [from, to): the balance just before each end, and the credits and debits between, which add up to
 * the difference exactly, since each entry's `balance_after` is the one before it plus its amount, in time order.
 */
export async function statementOf(
  deps: BalanceDeps,
  owner: Principal,
  accountId: string,
  query: StatementQuery,
): Promise<AccountStatement> {
  const account = await ownAccount(deps, owner, accountId);
  const now = (await deps.now(deps.db, owner)).getTime();
  const from = parseTime('from', query.from).at;
  if (from > now)
    throw new ApiError('parameter_invalid', `from must not be after now (${iso(now)}).`, { param: 'from' });
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
  const [opening, closing, totals] = await settledRead(deps, account.id, iso(to), (snapshot) =>
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
    from: iso(from),
    to: iso(to),
    opening_balance: opening === undefined ? 0 : toAmount(opening.balance_after),
    closing_balance: closing === undefined ? 0 : toAmount(closing.balance_after),
    credits: { count: Number(sums?.credit_count ?? 0), amount: toAmount(sums?.credits ?? 0) },
    debits: { count: Number(sums?.debit_count ?? 0), amount: toAmount(sums?.debits ?? 0) },
    livemode: account.mode === 'live',
  };
}
