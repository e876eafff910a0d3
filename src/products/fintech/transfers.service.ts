import type { Db, Trx } from '../../db/database.ts';
import { type EventRequest, emitEvents } from '../../platform/events/emit.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import type { Principal } from '../../platform/keys/principal.ts';
import { isIdOf, newId } from '../../platform/kit/ids.ts';
import { type Clock, storedTime } from '../../platform/kit/time.ts';
import { findAccount, lockSides, type Side } from './accounts.repository.ts';
import { toAmount } from './ledger/amount.ts';
import { postJournal } from './ledger/post.ts';
import { checkCredit, checkCurrency, checkFunds, checkOpen, cleanDescription } from './movement.ts';
import type { TransfersTable } from './tables.ts';
import { transactionOf } from './transactions.view.ts';
import * as repo from './transfers.repository.ts';
import type { Transfer, TransferCreateBody, TransferList, TransferListQuery } from './transfers.schema.ts';
import { transferFromRow } from './transfers.view.ts';

export interface MoneyDeps {
  db: Db;
  clock: Clock;
}

function sideNotFound(param: string, id: string): ApiError {
  return new ApiError('resource_not_found', `No such account: ${id.slice(0, 64)}`, { param });
}

/**
 * Why a transfer was refused, under both accounts' locks: existence, status, currency, then funds, each error naming
 * its side. Called only when the ledger refused a line (see `postJournal`); returns when nothing is wrong (any more).
 */
async function explainRefusal(trx: Trx, owner: Principal, body: TransferCreateBody): Promise<void> {
  const { from_account_id: fromId, to_account_id: toId, amount, currency } = body;
  const ids = [fromId, toId].filter((id) => isIdOf('acct', id));
  const accounts = ids.length > 0 ? await lockSides(trx, owner, ids) : new Map<string, Side>();
  const from = accounts.get(fromId);
  if (from === undefined) throw sideNotFound('from_account_id', fromId);
  const to = accounts.get(toId);
  if (to === undefined) throw sideNotFound('to_account_id', toId);
  checkOpen(from, 'from_account_id');
  checkOpen(to, 'to_account_id');
  checkCurrency(from, 'from_account_id', currency);
  checkCurrency(to, 'to_account_id', currency);
  checkFunds(from, 'from_account_id', amount);
  checkCredit(toAmount(to.balance), amount, currency);
}

/**
 * A transfer, synchronous: posted as one journal and stored, all in one write transaction. The ledger's guarded
 * balance updates are the checks; only a refused one reads the accounts, to say which side is at fault and why.
 */
export async function createTransfer(
  deps: MoneyDeps,
  trx: Trx,
  owner: Principal,
  body: TransferCreateBody,
  request: EventRequest | null,
): Promise<Transfer> {
  if (body.from_account_id === body.to_account_id)
    throw new ApiError('parameter_invalid', 'to_account_id must differ from from_account_id.', {
      param: 'to_account_id',
    });
  const description = cleanDescription(body.description);
  const now = deps.clock();
  const row: TransfersTable = {
    id: newId('tr', now.getTime()),
    org_id: owner.orgId,
    mode: owner.mode,
    from_account_id: body.from_account_id,
    to_account_id: body.to_account_id,
    amount: body.amount,
    currency: body.currency,
    description,
    status: 'posted',
    created_at: storedTime(now),
  };
  const { id, org_id, mode, currency, created_at } = row;
  const journal = { id, org_id, mode, currency, description, created_at, source_type: 'transfer' as const };
  const posted = await postJournal(
    trx,
    journal,
    [
      { accountId: body.from_account_id, kind: 'customer', amount: -body.amount },
      { accountId: body.to_account_id, kind: 'customer', amount: body.amount },
    ],
    () => explainRefusal(trx, owner, body),
  );
  await repo.insertTransfer(trx, row);
  const transfer = transferFromRow(row);
  // The outbox, in the same write: the transfer, then each side's transaction.
  await emitEvents(
    trx,
    owner,
    [
      { type: 'fintech.transfer.created', object: transfer },
      ...posted.map((entry) => ({
        type: 'fintech.transaction.created' as const,
        object: transactionOf(journal, entry),
      })),
    ],
    request,
    { at: now },
  );
  return transfer;
}

export async function retrieveTransfer(deps: MoneyDeps, owner: Principal, id: string): Promise<Transfer> {
  const row = isIdOf('tr', id) ? await repo.findTransfer(deps.db, owner, id) : undefined;
  if (row === undefined)
    throw new ApiError('resource_not_found', `No such transfer: ${id.slice(0, 64)}`, { param: 'id' });
  return transferFromRow(row);
}

export async function listTransfers(
  deps: MoneyDeps,
  owner: Principal,
  query: TransferListQuery,
): Promise<TransferList> {
  const accountId = query.account_id;
  if (accountId !== undefined && !(isIdOf('acct', accountId) && (await findAccount(deps.db, owner, accountId))))
    throw new ApiError('resource_not_found', `No such account: ${accountId.slice(0, 64)}`, { param: 'account_id' });
  const page = await listPage(
    query,
    async (id) => isIdOf('tr', id) && (await repo.findTransfer(deps.db, owner, id)) !== undefined,
    (take, cursor) => repo.pageTransfers(deps.db, owner, take, cursor, accountId),
  );
  return { object: 'list', data: page.rows.map(transferFromRow), has_more: page.hasMore };
}
