import { findOwned, pageOwned } from '../../db/owned.ts';
import { metadataOnCreate } from '../../modules/metadata/index.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { isIdOf, newId } from '../../platform/kit/ids.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { cleanDescription } from './description.ts';
import { type Minor, minus, plus, toAmount } from './ledger/amount.ts';
import { move } from './ledger/move.ts';
import { sideRefOf } from './ledger/sides.ts';
import { addReversed, insertReversal } from './reversals.repository.ts';
import type {
  ReversalCreateBody,
  ReversalListQuery,
  TransferReversal,
  TransferReversalList,
} from './reversals.schema.ts';
import { reversalFromRow } from './reversals.view.ts';
import { type MoneyDeps, REVERSAL, TRANSFER } from './shared.ts';
import type { Int64, TransferReversalsTable, TransfersTable } from './tables.ts';
import { lockTransfer } from './transfers.pending.ts';
import { transferFromRow } from './transfers.view.ts';

/**
 * What of a transfer is left to reverse (docs/api.md#correcting-a-transfer): what was posted less what reversals moved
 * back; 0 unless it is posted. The one rule, read by the service below and by the dashboard's reversal form.
 */
export function reversibleAmount(transfer: {
  status: string;
  posted_amount: Int64 | null;
  amount_reversed: Int64;
}): Minor {
  if (transfer.status !== 'posted') return toAmount(0);
  return minus(toAmount(transfer.posted_amount ?? 0), toAmount(transfer.amount_reversed));
}

/** What remains to reverse of a posted transfer; refused, with why, when nothing can be. */
function remainingOf(transfer: TransfersTable): Minor {
  if (transfer.status !== 'posted')
    throw new ApiError(
      'transfer_not_reversible',
      `Transfer ${transfer.id} is ${transfer.status}; only a posted transfer can be reversed.`,
      { param: 'id' },
    );
  const remaining = reversibleAmount(transfer);
  if (remaining <= 0)
    throw new ApiError('transfer_not_reversible', `Transfer ${transfer.id} is fully reversed already.`, {
      param: 'id',
    });
  return remaining;
}

/**
 * A reversal (docs/api.md#correcting-a-transfer), in one write: lock the transfer (PostgreSQL; the one order every
 * writer of a transfer takes: its row, then its sides' ledger rows), decide what remains and check both sides (the
 * receiver must have the amount available; neither may be frozen or closed), then move the money back with a journal
 * of its own, add to the transfer's `amount_reversed`, and record the reversal and its events. Every refusal comes
 * before the first write.
 */
export async function createReversal(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  transferId: string,
  body: ReversalCreateBody,
): Promise<TransferReversal> {
  const description = cleanDescription(body.description);
  const metadata = metadataOnCreate(body.metadata);
  const transfer = await lockTransfer(ctx.trx, ctx.owner, transferId);
  if (transfer.payment_id !== null)
    throw new ApiError(
      'transfer_not_reversible',
      `Transfer ${transfer.id} moves with payment ${transfer.payment_id}; a return of the payment reverses it.`,
      { param: 'id' },
    );
  const remaining = remainingOf(transfer);
  const amount = body.amount ?? remaining;
  if (amount > remaining)
    throw new ApiError(
      'parameter_invalid',
      `amount must be 1 to ${remaining}, what remains of transfer ${transfer.id} to reverse.`,
      { param: 'amount', ownNumbers: true },
    );
  return reverse(deps, ctx, transfer, amount, description, metadata);
}

/**
 * The reversal of `amount` of a posted transfer the caller has locked and checked (a reversal above, a payment's return
 * after settlement): the money goes back in one movement (the receiver is debited, and must have it available; the
 * sender credited), the transfer's `amount_reversed` grows, and the reversal and its events are recorded.
 */
export async function reverse(
  deps: MoneyDeps,
  ctx: WriteContext,
  transfer: TransfersTable,
  amount: Minor,
  description: string | null,
  metadata: Record<string, string>,
): Promise<TransferReversal> {
  const { trx, owner } = ctx;
  const moved = await move(trx, {
    owner,
    debit: sideRefOf(transfer.to_account_id, 'to_account_id'),
    credit: sideRefOf(transfer.from_account_id, 'from_account_id'),
    amount,
    currency: transfer.currency,
    effect: { kind: 'post' },
    now: ctx.now,
    journal: { id: (at) => newId(REVERSAL.prefix, at.getTime()), source: 'transfer_reversal', description },
  });
  const row: TransferReversalsTable = {
    id: moved.id,
    org_id: owner.orgId,
    mode: owner.mode,
    transfer_id: transfer.id,
    amount,
    currency: transfer.currency,
    description,
    metadata: JSON.stringify(metadata),
    created_at: moved.atText,
  };
  addReversed(trx, { id: transfer.id, amount });
  insertReversal(trx, row);
  const reversal = reversalFromRow(row);
  const updated = transferFromRow({ ...transfer, amount_reversed: plus(toAmount(transfer.amount_reversed), amount) });
  await deps.events.emit({ ...ctx, now: moved.at }, [
    { type: 'fintech.transfer_reversal.created', object: reversal },
    { type: 'fintech.transfer.updated', object: updated },
    ...moved.transactions,
  ]);
  return reversal;
}

/** The caller's transfer, for a read of its reversals: 404 when the caller cannot see it. */
async function ownedTransfer(deps: MoneyDeps, owner: Principal, id: string): Promise<TransfersTable> {
  const row = isIdOf(TRANSFER.prefix, id) ? await findOwned(deps.db, 'transfers', owner, id) : undefined;
  if (row === undefined) throw notFound(TRANSFER, id);
  return row;
}

export async function listReversals(
  deps: MoneyDeps,
  owner: Principal,
  transferId: string,
  query: ReversalListQuery,
): Promise<TransferReversalList> {
  const transfer = await ownedTransfer(deps, owner, transferId);
  const ofTransfer = async (id: string) =>
    isIdOf(REVERSAL.prefix, id) &&
    (await findOwned(deps.db, 'transfer_reversals', owner, id))?.transfer_id === transfer.id;
  const page = await listPage(query, ofTransfer, (take, cursor) =>
    pageOwned(deps.db, 'transfer_reversals', owner, take, cursor, (q) => q.where('transfer_id', '=', transfer.id)),
  );
  return { object: 'list', data: page.rows.map(reversalFromRow), has_more: page.hasMore };
}

export async function retrieveReversal(
  deps: MoneyDeps,
  owner: Principal,
  transferId: string,
  id: string,
): Promise<TransferReversal> {
  const transfer = await ownedTransfer(deps, owner, transferId);
  const row = isIdOf(REVERSAL.prefix, id) ? await findOwned(deps.db, 'transfer_reversals', owner, id) : undefined;
  if (row === undefined || row.transfer_id !== transfer.id) throw notFound(REVERSAL, id, 'reversal_id');
  return reversalFromRow(row);
}
