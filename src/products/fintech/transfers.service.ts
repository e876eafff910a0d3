import type { Trx } from '../../db/database.ts';
import { findOwned, pageOwned } from '../../db/owned.ts';
import type { EventRequest } from '../../platform/events/emit.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import type { Principal } from '../../platform/keys/principal.ts';
import { isIdOf, newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import { findAccount } from './accounts.repository.ts';
import { postJournal } from './ledger/post.ts';
import { lockSides, type Side } from './ledger/sides.ts';
import { checkCredit, checkCurrency, checkFunds, checkOpen, cleanDescription } from './movement.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps, TRANSFER } from './shared.ts';
import type { TransfersTable } from './tables.ts';
import { transactionOf } from './transactions.view.ts';
import * as repo from './transfers.repository.ts';
import type { Transfer, TransferCreateBody, TransferList, TransferListQuery } from './transfers.schema.ts';
import { transferFromRow } from './transfers.view.ts';

/**
 * Both sides of a transfer, locked, and every check a movement of money makes, in the order the errors are reported:
 * existence, status, currency, then funds and the credit bound, each error naming its side in `param`.
 */
async function lockAndCheck(trx: Trx, owner: Principal, body: TransferCreateBody): Promise<[Side, Side]> {
  const { from_account_id: fromId, to_account_id: toId, amount, currency } = body;
  const ids = [fromId, toId].filter((id) => isIdOf(ACCOUNT.prefix, id));
  const sides = ids.length > 0 ? await lockSides(trx, owner, ids) : new Map<string, Side>();
  const from = sides.get(fromId);
  if (from === undefined) throw accountNotFound(fromId, 'from_account_id');
  const to = sides.get(toId);
  if (to === undefined) throw accountNotFound(toId, 'to_account_id');
  checkOpen(from, 'from_account_id');
  checkOpen(to, 'to_account_id');
  checkCurrency(from, 'from_account_id', currency);
  checkCurrency(to, 'to_account_id', currency);
  checkFunds(from, 'from_account_id', amount);
  checkCredit(to, amount, currency);
  return [from, to];
}

/**
 * A transfer, synchronous, in one write transaction: lock and check both sides, post the journal, store the
 * transfer, and record its events (the transfer, then each side's transaction). A refusal is thrown before anything
 * is written.
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
  const [from, to] = await lockAndCheck(trx, owner, body);
  const now = deps.clock();
  const row: TransfersTable = {
    id: newId(TRANSFER.prefix, now.getTime()),
    org_id: owner.orgId,
    mode: owner.mode,
    from_account_id: from.id,
    to_account_id: to.id,
    amount: body.amount,
    currency: body.currency,
    description,
    status: 'posted',
    created_at: storedTime(now),
  };
  const { id, org_id, mode, currency, created_at } = row;
  const journal = { id, org_id, mode, currency, description, created_at, source_type: 'transfer' as const };
  const posted = postJournal(trx, journal, [
    { side: from, amount: -body.amount },
    { side: to, amount: body.amount },
  ]);
  repo.insertTransfer(trx, row);
  const transfer = transferFromRow(row);
  const transactions = posted.map((entry) => ({
    type: 'fintech.transaction.created' as const,
    object: transactionOf(journal, entry),
  }));
  const changes = [{ type: 'fintech.transfer.created' as const, object: transfer }, ...transactions];
  await deps.events.emit(trx, owner, changes, request, { at: now });
  return transfer;
}

export async function retrieveTransfer(deps: MoneyDeps, owner: Principal, id: string): Promise<Transfer> {
  const row = isIdOf(TRANSFER.prefix, id) ? await findOwned(deps.db, 'transfers', owner, id) : undefined;
  if (row === undefined) throw notFound(TRANSFER, id);
  return transferFromRow(row);
}

export async function listTransfers(
  deps: MoneyDeps,
  owner: Principal,
  query: TransferListQuery,
): Promise<TransferList> {
  const accountId = query.account_id;
  if (accountId !== undefined && !(isIdOf(ACCOUNT.prefix, accountId) && (await findAccount(deps.db, owner, accountId))))
    throw accountNotFound(accountId, 'account_id');
  const page = await listPage(
    query,
    async (id) => isIdOf(TRANSFER.prefix, id) && (await findOwned(deps.db, 'transfers', owner, id)) !== undefined,
    (take, cursor) =>
      pageOwned(deps.db, 'transfers', owner, take, cursor, (q) =>
        accountId === undefined
          ? q
          : q.where((eb) => eb.or([eb('from_account_id', '=', accountId), eb('to_account_id', '=', accountId)])),
      ),
  );
  return { object: 'list', data: page.rows.map(transferFromRow), has_more: page.hasMore };
}
