import type { Trx } from '../../db/database.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { isIdOf, newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { postJournal } from './ledger/post.ts';
import { lockSides, lockSystemSide, type Side } from './ledger/sides.ts';
import { ensureSystemAccount, systemAccountId } from './ledger/system-account.ts';
import { movementTime } from './ledger/time.ts';
import { checkCredit, checkFunds, checkOpen, cleanDescription } from './movement.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps } from './shared.ts';
import type { SourceType } from './tables.ts';
import type { SimulationBody, Transaction } from './transactions.schema.ts';
import { transactionOf } from './transactions.view.ts';

/**
 * The org's system account for the currency, locked and read; made on first use. Made before the check of its bound,
 * which it cannot fail then (a new account holds 0), so a refusal still comes before any write that matters.
 */
async function systemSide(trx: Trx, owner: Principal, currency: string, at: string): Promise<Side> {
  const id = systemAccountId(owner.orgId, owner.mode, currency);
  const existing = await lockSystemSide(trx, id);
  if (existing !== undefined) return existing;
  ensureSystemAccount(trx, owner.orgId, owner.mode, currency, at);
  return (await lockSystemSide(trx, id))!;
}

/**
 * A sandbox deposit (+1) or withdrawal (−1): a journal between the account and its org's system funding account
 * for that mode and currency, which may go negative. Sandbox keys only. Lock and check the account, then the system
 * account (locked last: every simulation of the org and currency updates it), then post; a refusal is thrown before
 * anything is written. The account's currency decides the journal's and which system account is the other side.
 */
async function simulate(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  accountId: string,
  body: SimulationBody,
  sign: 1 | -1,
): Promise<Transaction> {
  const { trx, owner, now } = ctx;
  if (owner.mode !== 'sandbox')
    throw new ApiError('permission_denied', 'Sandbox simulations need a sandbox key (sk_test_…).');
  const description = cleanDescription(body.description);
  if (!isIdOf(ACCOUNT.prefix, accountId)) throw accountNotFound(accountId);
  const account = (await lockSides(trx, owner, [accountId])).get(accountId);
  if (account === undefined) throw accountNotFound(accountId);
  checkOpen(account, 'id');
  const amount = sign * body.amount;
  if (amount < 0) checkFunds(account, 'id', -amount);
  else checkCredit(account, amount, account.currency);
  const system = await systemSide(trx, owner, account.currency, storedTime(now));
  checkCredit(system, -amount, account.currency);
  const moment = movementTime(now, [account, system]);
  const at = storedTime(moment);
  const source: SourceType = sign === 1 ? 'sandbox_deposit' : 'sandbox_withdrawal';
  const id = newId(sign === 1 ? 'sdep' : 'swd', moment.getTime());
  const journal = { id, org_id: owner.orgId, mode: owner.mode, currency: account.currency, description };
  const posted = postJournal(trx, { ...journal, source_type: source, created_at: at }, [
    { side: account, amount },
    { side: system, amount: -amount },
  ]);
  const entry = posted.find((p) => p.accountId === accountId)!;
  const transaction = transactionOf({ ...journal, created_at: at, source_type: source }, entry);
  await deps.events.emit({ ...ctx, now: moment }, [{ type: 'fintech.transaction.created', object: transaction }]);
  return transaction;
}

export const simulateDeposit = (deps: MoneyDeps, ctx: WriteContext<Principal>, id: string, body: SimulationBody) =>
  simulate(deps, ctx, id, body, 1);

export const simulateWithdrawal = (deps: MoneyDeps, ctx: WriteContext<Principal>, id: string, body: SimulationBody) =>
  simulate(deps, ctx, id, body, -1);
