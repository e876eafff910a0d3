import type { Kysely } from 'kysely';
import type { Trx } from '../../db/database.ts';
import { preparedSend, preparedWrite } from '../../db/prepared.ts';
import type { Tables } from '../../db/tables.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { isIdOf } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { type Minor, toAmount } from './ledger/amount.ts';
import { endHold, type Hold, move, releaseExpiredHold } from './ledger/move.ts';
import { sideRefOf } from './ledger/sides.ts';
import { type MoneyDeps, TRANSFER } from './shared.ts';
import type { TransferStatus, TransfersTable } from './tables.ts';
import type { Transfer, TransferPostBody } from './transfers.schema.ts';
import { transferFromRow } from './transfers.view.ts';

/**
 * Money that waits (docs/api.md#holding-money-pending-transfers-and-the-two-balances): a pending transfer holds its
 * amount on the sender until it is posted (all or part), voided, or expires. Each of these locks the transfer's row
 * first (PostgreSQL; then the ledger rows, in the order every writer takes them), so a post racing a void racing the
 * expiry has one winner; the others find it no longer pending and get 409.
 */

type Owned = { id: string; org_id: string; mode: Principal['mode'] };
const OWNED = { id: true, org_id: true, mode: true } as const;
const ownedRow = (db: Kysely<Tables>, p: Owned) =>
  db
    .selectFrom('transfers')
    .selectAll()
    .where('id', '=', p.id)
    .where('org_id', '=', p.org_id)
    .where('mode', '=', p.mode);
const lockRow = preparedWrite<Owned, TransfersTable>(OWNED, (db, p) => ownedRow(db, p).forNoKeyUpdate());

type Resolution = Pick<TransfersTable, 'id' | 'status' | 'posted_amount' | 'resolved_at' | 'expires_at'>;
const resolve = preparedSend<Resolution>(
  { id: true, status: true, posted_amount: true, resolved_at: true, expires_at: true },
  (db, { id, ...changes }) => db.updateTable('transfers').set(changes).where('id', '=', id),
);

/** The caller's transfer, locked (PostgreSQL); 404 when the caller cannot see it. */
export async function lockTransfer(trx: Trx, owner: Principal, id: string): Promise<TransfersTable> {
  const found = isIdOf(TRANSFER.prefix, id)
    ? (await lockRow(trx, { id, org_id: owner.orgId, mode: owner.mode })).rows[0]
    : undefined;
  if (found === undefined) throw notFound(TRANSFER, id);
  return found;
}

const expired = (row: TransfersTable) =>
  new ApiError(
    'transfer_expired',
    `Transfer ${row.id} expired at ${row.expires_at}; its hold is released. Make a new transfer.`,
    { param: 'id' },
  );

/** What a pending transfer holds on its sender, until its expiry (ledger/move.ts ends it, or posts it). */
export const holdOf = (row: TransfersTable): Hold => ({
  held: toAmount(row.amount),
  expiresAt: row.expires_at,
  expired: () => expired(row),
});

/** The caller's transfer, locked; refused unless it is pending and not past its expiry. */
export async function lockPending(trx: Trx, owner: Principal, id: string, now: Date): Promise<TransfersTable> {
  const found = await lockTransfer(trx, owner, id);
  if (found.payment_id !== null)
    throw new ApiError(
      'payment_state_invalid',
      `Transfer ${found.id} moves with payment ${found.payment_id}: it settles, returns or is canceled with it.`,
      { param: 'id' },
    );
  if (found.status === 'expired') throw expired(found);
  if (found.status === 'pending' && found.expires_at !== null && Date.parse(found.expires_at) <= now.getTime())
    throw expired(found);
  if (found.status !== 'pending')
    throw new ApiError('transfer_not_pending', `Transfer ${found.id} is ${found.status}; only a pending one moves.`, {
      param: 'id',
    });
  return found;
}

/** Posts all of a pending transfer, or part: the part moves, the rest of the hold returns to the sender. */
export async function postTransfer(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  id: string,
  body: TransferPostBody,
): Promise<Transfer> {
  const row = await lockPending(ctx.trx, ctx.owner, id, ctx.now);
  const held = toAmount(row.amount);
  const amount = body.amount ?? held;
  if (amount > held)
    throw new ApiError('parameter_invalid', `amount must be 1 to ${held}, the amount this transfer holds.`, {
      param: 'amount',
      ownNumbers: true,
    });
  return postHeld(deps, ctx, row, amount);
}

/**
 * The post of a pending transfer the caller has locked and checked (a post above, a payment's settlement): one
 * movement of `amount` of its hold (ledger/move.ts), its row `posted`, its events.
 */
export async function postHeld(
  deps: MoneyDeps,
  ctx: WriteContext,
  row: TransfersTable,
  amount: Minor,
): Promise<Transfer> {
  const moved = await move(ctx.trx, {
    owner: ctx.owner,
    debit: sideRefOf(row.from_account_id, 'from_account_id'),
    credit: sideRefOf(row.to_account_id, 'to_account_id'),
    amount,
    currency: row.currency,
    effect: { kind: 'post_held', ...holdOf(row) },
    now: ctx.now,
    journal: { id: () => row.id, source: 'transfer', description: row.description },
  });
  const posted = { ...row, status: 'posted' as const, posted_amount: amount, resolved_at: moved.atText };
  resolve(ctx.trx, posted);
  const transfer = transferFromRow(posted);
  const changes = [{ type: 'fintech.transfer.posted' as const, object: transfer }, ...moved.transactions];
  await deps.events.emit({ ...ctx, now: moved.at }, changes);
  return transfer;
}

/**
 * A pending transfer whose hold ended (ledger/move.ts: `endHold`, or the sweep's `releaseExpiredHold`) without moving
 * anything: its row becomes voided or expired, with its event.
 */
export async function resolveHeld(
  deps: MoneyDeps,
  ctx: WriteContext,
  row: TransfersTable,
  status: Extract<TransferStatus, 'voided' | 'expired'>,
): Promise<Transfer> {
  const resolvedAt = status === 'expired' ? row.expires_at! : storedTime(ctx.now);
  const resolved = { ...row, status, resolved_at: resolvedAt };
  resolve(ctx.trx, resolved);
  const transfer = transferFromRow(resolved);
  const type = status === 'voided' ? ('fintech.transfer.voided' as const) : ('fintech.transfer.expired' as const);
  await deps.events.emit({ ...ctx, owner: { orgId: row.org_id, mode: row.mode } }, [{ type, object: transfer }]);
  return transfer;
}

/** Voids a pending transfer: its hold returns to the sender, nothing moves, no ledger entry. */
export async function voidTransfer(deps: MoneyDeps, ctx: WriteContext<Principal>, id: string): Promise<Transfer> {
  const row = await lockPending(ctx.trx, ctx.owner, id, ctx.now);
  const at = await endHold(ctx.trx, ctx.owner, row.from_account_id, holdOf(row), ctx.now);
  return resolveHeld(deps, { ...ctx, now: at }, row, 'voided');
}

/** The sweep's release of a hold at its expiry. */
export async function expireHeld(deps: MoneyDeps, ctx: WriteContext, row: TransfersTable): Promise<Transfer> {
  releaseExpiredHold(ctx.trx, row.from_account_id, toAmount(row.amount));
  return resolveHeld(deps, ctx, row, 'expired');
}
