import type { Trx } from '../../db/database.ts';
import { type EventRequest, emitEvent } from '../../platform/events/emit.ts';
import { ApiError } from '../../platform/http/errors.ts';
import type { Principal } from '../../platform/keys/principal.ts';
import { isIdOf, newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import { lockSides, type Side } from './accounts.repository.ts';
import { toAmount } from './ledger/amount.ts';
import { locksRows } from './ledger/dialect.ts';
import { postJournal } from './ledger/post.ts';
import { ensureSystemAccount } from './ledger/system-account.ts';
import { accountNotFound } from './lifecycle.service.ts';
import { checkCredit, checkFunds, checkOpen, cleanDescription } from './movement.ts';
import type { SourceType } from './tables.ts';
import type { SimulationBody, Transaction } from './transactions.schema.ts';
import { transactionOf } from './transactions.view.ts';
import type { MoneyDeps } from './transfers.service.ts';

/** The system account's balance, locked (PostgreSQL) after the customer account: the one lock order. */
async function systemBalance(trx: Trx, id: string): Promise<number> {
  const query = trx.selectFrom('ledger_accounts').select('balance').where('id', '=', id);
  const row = await (locksRows(trx) ? query.forNoKeyUpdate() : query).executeTakeFirstOrThrow();
  return toAmount(row.balance);
}

/** A deposit keeps both balances in bounds; a withdrawal needs the funds. */
async function checkAmount(trx: Trx, account: Side, systemId: string, signed: number): Promise<void> {
  if (signed < 0) return checkFunds(account, 'id', -signed);
  checkCredit(toAmount(account.balance), signed, account.currency);
  checkCredit(await systemBalance(trx, systemId), -signed, account.currency);
}

/**
 * A sandbox deposit (+1) or withdrawal (−1): a journal between the account and its org's system funding account
 * for that mode and currency, which may go negative. Sandbox keys only. Unlike a transfer, it reads the account
 * before it writes: the request names no currency, and the account's currency decides the journal's and which system
 * account is the other side. The ledger's guarded updates still back every check made here.
 */
async function simulate(
  deps: MoneyDeps,
  trx: Trx,
  owner: Principal,
  accountId: string,
  body: SimulationBody,
  sign: 1 | -1,
  request: EventRequest | null,
): Promise<Transaction> {
  if (owner.mode !== 'sandbox')
    throw new ApiError('permission_denied', 'Sandbox simulations need a sandbox key (sk_test_…).');
  const description = cleanDescription(body.description);
  if (!isIdOf('acct', accountId)) throw accountNotFound(accountId);
  const account = (await lockSides(trx, owner, [accountId])).get(accountId);
  if (account === undefined) throw accountNotFound(accountId);
  checkOpen(account, 'id');
  const now = deps.clock();
  const at = storedTime(now);
  const systemId = await ensureSystemAccount(trx, owner.orgId, owner.mode, account.currency, at);
  await checkAmount(trx, account, systemId, sign * body.amount);
  const source: SourceType = sign === 1 ? 'sandbox_deposit' : 'sandbox_withdrawal';
  const id = newId(sign === 1 ? 'sdep' : 'swd', now.getTime());
  const journal = { id, org_id: owner.orgId, mode: owner.mode, currency: account.currency, description };
  const posted = await postJournal(trx, { ...journal, source_type: source, created_at: at }, [
    { accountId, kind: 'customer', amount: sign * body.amount },
    { accountId: systemId, kind: 'system', amount: -sign * body.amount },
  ]);
  const entry = posted.find((p) => p.accountId === accountId)!;
  const transaction = transactionOf({ ...journal, created_at: at, source_type: source }, entry);
  await emitEvent(trx, owner, 'fintech.transaction.created', transaction, request, { at: now });
  return transaction;
}

type Request = EventRequest | null;

export const simulateDeposit = (
  deps: MoneyDeps,
  trx: Trx,
  owner: Principal,
  accountId: string,
  body: SimulationBody,
  request: Request,
) => simulate(deps, trx, owner, accountId, body, 1, request);

export const simulateWithdrawal = (
  deps: MoneyDeps,
  trx: Trx,
  owner: Principal,
  accountId: string,
  body: SimulationBody,
  request: Request,
) => simulate(deps, trx, owner, accountId, body, -1, request);
