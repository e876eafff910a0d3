import type { Trx } from '../../db/database.ts';
import { findOwned, pageOwned } from '../../db/owned.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import type { Change } from '../../platform/events/emit.ts';
import { createdRange, createdWithin } from '../../platform/http/created-filter.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { isIdOf, newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import { indexMetadata, metadataOnCreate, whereMetadata } from '../../platform/metadata/metadata.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { findAccount } from './accounts.repository.ts';
import { changeHold, postJournal } from './ledger/post.ts';
import { lockSides, type Side } from './ledger/sides.ts';
import { movementTime } from './ledger/time.ts';
import { checkCredit, checkCurrency, checkFunds, checkOpen, cleanDescription } from './movement.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps, TRANSFER } from './shared.ts';
import type { TransfersTable } from './tables.ts';
import { transactionOf } from './transactions.view.ts';
import * as repo from './transfers.repository.ts';
import {
  EXPIRES_DEFAULT,
  EXPIRES_ONLY_PENDING,
  type Transfer,
  type TransferCreateBody,
  type TransferList,
  type TransferListQuery,
} from './transfers.schema.ts';
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
 * A transfer, in one write transaction: lock and check both sides, then either post it (the journal, both balances,
 * each side's transaction) or, with `pending: true`, hold the amount on the sender until it is posted, voided or
 * expires (docs/api.md#holding-money-pending-transfers-and-the-two-balances). A refusal is thrown before anything is
 * written.
 */
export async function createTransfer(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  body: TransferCreateBody,
): Promise<Transfer> {
  const { trx, owner } = ctx;
  if (body.from_account_id === body.to_account_id)
    throw new ApiError('parameter_invalid', 'to_account_id must differ from from_account_id.', {
      param: 'to_account_id',
    });
  const pending = body.pending === true;
  // The schema's dependentSchemas refuses this; the CLI or a test may call the service without it.
  if (body.expires_in_seconds !== undefined && !pending)
    throw new ApiError('parameter_invalid', EXPIRES_ONLY_PENDING, { param: 'expires_in_seconds' });
  const description = cleanDescription(body.description);
  const metadata = metadataOnCreate(body.metadata);
  const [from, to] = await lockAndCheck(trx, owner, body);
  const now = movementTime(ctx.now, [from, to]);
  const expiresIn = body.expires_in_seconds ?? EXPIRES_DEFAULT;
  const row: TransfersTable = {
    id: newId(TRANSFER.prefix, now.getTime()),
    org_id: owner.orgId,
    mode: owner.mode,
    from_account_id: from.id,
    to_account_id: to.id,
    amount: body.amount,
    currency: body.currency,
    description,
    status: pending ? 'pending' : 'posted',
    pending: pending ? 1 : 0,
    posted_amount: pending ? null : body.amount,
    expires_at: pending ? storedTime(new Date(now.getTime() + expiresIn * 1000)) : null,
    resolved_at: null,
    amount_reversed: 0,
    metadata: JSON.stringify(metadata),
    created_at: storedTime(now),
  };
  const transactions = pending ? [] : postTransferJournal(trx, row, from, to, body.amount);
  if (pending) changeHold(trx, { id: from.id, amount: body.amount });
  repo.insertTransfer(trx, row);
  indexMetadata(trx, 'transfers', row.id, metadata, false);
  const transfer = transferFromRow(row);
  const changes = [{ type: 'fintech.transfer.created' as const, object: transfer }, ...transactions];
  await deps.events.emit({ ...ctx, now }, changes);
  return transfer;
}

/**
 * The journal of a transfer's posting, for `amount` (all of a plain transfer, all or part of a pending one), the hold
 * it releases on the sender, and each side's transaction as its event reports it.
 */
export function postTransferJournal(
  trx: Trx,
  transfer: TransfersTable,
  from: Side,
  to: Side,
  amount: number,
  release = 0,
  at = transfer.created_at,
): Change[] {
  const { id, org_id, mode, currency, description } = transfer;
  const journal = { id, org_id, mode, currency, description, created_at: at, source_type: 'transfer' as const };
  const posted = postJournal(trx, journal, [
    { side: from, amount: -amount, release },
    { side: to, amount },
  ]);
  return posted.map((entry) => ({
    type: 'fintech.transaction.created' as const,
    object: transactionOf(journal, entry),
  }));
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
      pageOwned(deps.db, 'transfers', owner, take, cursor, (q) => {
        let narrowed = createdWithin(q, 'transfers', TRANSFER.prefix, createdRange(query.created));
        if (accountId !== undefined)
          narrowed = narrowed.where((eb) =>
            eb.or([eb('from_account_id', '=', accountId), eb('to_account_id', '=', accountId)]),
          );
        if (query.status !== undefined) narrowed = narrowed.where('status', '=', query.status);
        return whereMetadata(narrowed, owner, 'transfers', query.metadata);
      }),
  );
  return { object: 'list', data: page.rows.map(transferFromRow), has_more: page.hasMore };
}
