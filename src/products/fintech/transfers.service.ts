import { findOwned, pageOwned } from '../../db/owned.ts';
import { indexMetadata, metadataOnCreate, whereMetadata } from '../../modules/metadata/index.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { createdRange, createdWithin } from '../../platform/http/created-filter.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { isIdOf, newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { findAccount } from './accounts.repository.ts';
import { cleanDescription } from './description.ts';
import { move } from './ledger/move.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps, TRANSFER } from './shared.ts';
import type { TransfersTable } from './tables.ts';
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
 * A transfer, in one write transaction: one movement of money (ledger/move.ts: both sides locked and checked, then
 * posted, or with `pending: true` held on the sender until it is posted, voided or expires:
 * docs/api.md#holding-money-pending-transfers-and-the-two-balances), the transfer's row and its events. A refusal is
 * thrown before anything is written.
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
  const moved = await move(trx, {
    owner,
    debit: { account: body.from_account_id, param: 'from_account_id' },
    credit: { account: body.to_account_id, param: 'to_account_id' },
    amount: body.amount,
    currency: body.currency,
    effect: pending ? { kind: 'hold' } : { kind: 'post' },
    now: ctx.now,
    journal: { id: (at) => newId(TRANSFER.prefix, at.getTime()), source: 'transfer', description },
  });
  const now = moved.at;
  const expiresIn = body.expires_in_seconds ?? EXPIRES_DEFAULT;
  const row: TransfersTable = {
    id: moved.id,
    org_id: owner.orgId,
    mode: owner.mode,
    from_account_id: body.from_account_id,
    to_account_id: body.to_account_id,
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
    created_at: moved.atText,
    payment_id: null,
  };
  repo.insertTransfer(trx, row);
  indexMetadata(trx, 'transfers', row.id, metadata, false);
  const transfer = transferFromRow(row);
  const changes = [{ type: 'fintech.transfer.created' as const, object: transfer }, ...moved.transactions];
  await deps.events.emit({ ...ctx, now }, changes);
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
