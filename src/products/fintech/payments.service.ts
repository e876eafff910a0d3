import { findOwned, pageOwned } from '../../db/owned.ts';
import { metadataOnCreate } from '../../modules/metadata/index.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { type IdKind, isIdOf, newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import { findAccount } from './accounts.repository.ts';
import { cleanDescription } from './description.ts';
import { toAmount } from './ledger/amount.ts';
import { endHold, move } from './ledger/move.ts';
import type { SystemPurpose } from './ledger/system-account.ts';
import { achSettlement, nextAchCutoff, nextBusinessMorning, wireSettlement } from './payments.calendar.ts';
import * as repo from './payments.repository.ts';
import { returnReasonOf } from './payments.returns.ts';
import type { Payment, PaymentCreateBody, PaymentList, PaymentListQuery } from './payments.schema.ts';
import { paymentFromRow } from './payments.view.ts';
import { reverse } from './reversals.service.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps, TRANSFER } from './shared.ts';
import type { PaymentRulesTable, PaymentsTable, Rail, TransfersTable } from './tables.ts';
import { holdOf, lockTransfer, postHeld, resolveHeld } from './transfers.pending.ts';
import * as transfers from './transfers.repository.ts';
import { transferFromRow } from './transfers.view.ts';

/**
 * Payments (docs/api.md#bank-account-numbers-and-payments): money sent to an external bank account over ACH, wire or
 * RTP, and money received. Every outcome is a ledger operation that already exists: a payment out is a pending
 * transfer (a hold, with no expiry) from the account to its org's clearing account for the rail; settlement posts it;
 * a return, rejection or cancel before settlement voids it; a return after settlement reverses it. Each is one
 * movement (ledger/move.ts), so each gets every check of a movement by construction.
 *
 * A payment's life is a chain of steps, each due at a moment (`due_at`, `due_action`): submission, settlement, a rule's
 * return. In the sandbox the org's clock runs them as it reaches them (payments.sandbox.ts declares them due); a step
 * due at once runs in the write that made it due. Live payments wait for the bank (ACH in `pending_submission` until
 * a bank file submits it).
 */

export const PAYMENT: IdKind = { noun: 'payment', prefix: 'pay' };
export const EXTERNAL_ACCOUNT: IdKind = { noun: 'external account', prefix: 'ext' };

export interface PaymentDeps extends MoneyDeps {
  secrets: SecretBox;
  /** BANK_ROUTING_NUMBER: live account numbers need it; null when unset. */
  routingNumber: string | null;
}

/** What a step may read of the rules of the payment's org (payments.sandbox.ts); live payments have none. */
export interface RuleBook {
  /** The oldest of the org's sandbox rules matching `payment` whose action applies at `moment`. */
  match(
    ctx: WriteContext,
    payment: PaymentsTable,
    moment: 'submission' | 'settlement',
  ): Promise<PaymentRulesTable | undefined>;
}

const clearingOf = (rail: Rail): SystemPurpose => `clearing_${rail}`;

const paymentState = (row: PaymentsTable, wanted: string) =>
  new ApiError('payment_state_invalid', `Payment ${row.id} is ${row.status}; ${wanted}.`, { param: 'id' });

export async function createPayment(
  deps: PaymentDeps,
  rules: RuleBook,
  ctx: WriteContext<Principal>,
  body: PaymentCreateBody,
): Promise<Payment> {
  const { trx, owner } = ctx;
  if (owner.mode === 'live' && body.rail !== 'ach')
    throw new ApiError(
      'rail_unavailable',
      `Live ${body.rail} payments need a bank connection, which this deployment does not have; send ACH, which goes by bank file.`,
      { param: 'rail' },
    );
  const external = isIdOf(EXTERNAL_ACCOUNT.prefix, body.external_account_id)
    ? await findOwned(trx, 'external_accounts', owner, body.external_account_id)
    : undefined;
  if (external === undefined) throw notFound(EXTERNAL_ACCOUNT, body.external_account_id, 'external_account_id');
  const description = cleanDescription(body.description);
  const metadata = metadataOnCreate(body.metadata);
  const moved = await move(trx, {
    owner,
    debit: { account: body.account_id, param: 'account_id' },
    credit: { system: clearingOf(body.rail) },
    amount: body.amount,
    currency: body.currency,
    effect: { kind: 'hold' },
    now: ctx.now,
    journal: { id: (at) => newId(TRANSFER.prefix, at.getTime()), source: 'transfer', description },
  });
  const id = newId(PAYMENT.prefix, moved.at.getTime());
  const transfer: TransfersTable = {
    id: moved.id,
    org_id: owner.orgId,
    mode: owner.mode,
    from_account_id: body.account_id,
    to_account_id: moved.creditId,
    amount: body.amount,
    currency: body.currency,
    description,
    status: 'pending',
    pending: 1,
    posted_amount: null,
    expires_at: null,
    resolved_at: null,
    amount_reversed: 0,
    metadata: '{}',
    created_at: moved.atText,
    payment_id: id,
  };
  transfers.insertTransfer(trx, transfer);
  const sandbox = owner.mode === 'sandbox';
  const row: PaymentsTable = {
    id,
    org_id: owner.orgId,
    mode: owner.mode,
    direction: 'outbound',
    rail: body.rail,
    account_id: body.account_id,
    external_account_id: external.id,
    account_number_id: null,
    amount: body.amount,
    currency: body.currency,
    status: 'pending_submission',
    return_code: null,
    transfer_id: transfer.id,
    originator_name: null,
    description,
    metadata: JSON.stringify(metadata),
    submitted_at: null,
    settled_at: null,
    returned_at: null,
    created_at: moved.atText,
    due_at: sandbox
      ? storedTime(new Date(body.rail === 'ach' ? nextAchCutoff(moved.at.getTime()) : moved.at.getTime()))
      : null,
    due_action: sandbox ? 'submit' : null,
    due_return_code: null,
  };
  repo.insertPayment(trx, row);
  await deps.events.emit({ ...ctx, now: moved.at }, [
    { type: 'fintech.transfer.created', object: transferFromRow(transfer) },
    { type: 'fintech.payment.created', object: paymentFromRow(row) },
  ]);
  // What is due at once (a wire in banking hours, RTP) runs now, in this write.
  let current = row;
  while (current.due_at !== null && current.due_at <= moved.atText)
    current = await runStep(deps, rules, { ...ctx, now: moved.at }, current);
  return paymentFromRow(current);
}

/** The caller's payment, locked; 404 when the caller cannot see it. */
export async function lockPayment(ctx: WriteContext, id: string): Promise<PaymentsTable> {
  const row = isIdOf(PAYMENT.prefix, id) ? await repo.lockPaymentRow(ctx.trx, ctx.owner, id) : undefined;
  if (row === undefined) throw notFound(PAYMENT, id);
  return row;
}

/** A payment's change, written with its event. */
async function changed(deps: MoneyDeps, ctx: WriteContext, row: PaymentsTable): Promise<PaymentsTable> {
  repo.updatePayment(ctx.trx, row);
  await deps.events.emit(ctx, [{ type: 'fintech.payment.updated', object: paymentFromRow(row) }]);
  return row;
}

const nothingDue = { due_at: null, due_action: null, due_return_code: null } as const;

/** The payment's transfer, locked. */
async function transferOf(ctx: WriteContext, row: PaymentsTable): Promise<TransfersTable> {
  return lockTransfer(ctx.trx, ctx.owner as Principal, row.transfer_id!);
}

/** Before settlement: the hold ends, nothing moves; the transfer is voided and the payment ends as `status`. */
async function endUnsettled(
  deps: MoneyDeps,
  ctx: WriteContext,
  row: PaymentsTable,
  status: 'returned' | 'rejected' | 'canceled',
  returnCode: string | null,
): Promise<PaymentsTable> {
  const transfer = await transferOf(ctx, row);
  const at = await endHold(ctx.trx, ctx.owner, transfer.from_account_id, holdOf(transfer), ctx.now);
  const ended = { ...ctx, now: at };
  await resolveHeld(deps, ended, transfer, 'voided');
  return changed(deps, ended, { ...row, ...nothingDue, status, return_code: returnCode, returned_at: storedTime(at) });
}

/** After settlement: a return reverses the transfer, the R code in the reversal's description. */
async function returnSettled(
  deps: MoneyDeps,
  ctx: WriteContext,
  row: PaymentsTable,
  code: string,
): Promise<PaymentsTable> {
  const transfer = await transferOf(ctx, row);
  const reason = returnReasonOf(code);
  await reverse(deps, ctx, transfer, toAmount(transfer.posted_amount!), `${code}: ${reason.description}`, {});
  return changed(deps, ctx, {
    ...row,
    ...nothingDue,
    status: 'returned',
    return_code: code,
    returned_at: storedTime(ctx.now),
  });
}

/** Submits a payment: to the rail now; its settlement is due when the rail settles it. */
async function submit(deps: MoneyDeps, rules: RuleBook, ctx: WriteContext, row: PaymentsTable): Promise<PaymentsTable> {
  const rule = await rules.match(ctx, row, 'submission');
  if (rule !== undefined && row.rail === 'ach' && rule.return_code !== null)
    return endUnsettled(deps, ctx, row, 'returned', rule.return_code);
  if (rule !== undefined && row.rail !== 'ach' && rule.reject === 1)
    return endUnsettled(deps, ctx, row, 'rejected', null);
  const at = ctx.now.getTime();
  const settles = row.rail === 'ach' ? achSettlement(at) : row.rail === 'wire' ? wireSettlement(at) : at;
  return changed(deps, ctx, {
    ...row,
    status: 'submitted',
    submitted_at: storedTime(ctx.now),
    due_at: row.mode === 'sandbox' ? storedTime(new Date(settles)) : null,
    due_action: row.mode === 'sandbox' ? 'settle' : null,
  });
}

/** Settles a submitted payment: its transfer posts (current balance drops now); a rule may return it later. */
async function settle(deps: MoneyDeps, rules: RuleBook, ctx: WriteContext, row: PaymentsTable): Promise<PaymentsTable> {
  const atSettlement = await rules.match(ctx, row, 'settlement');
  if (
    atSettlement !== undefined &&
    row.rail === 'ach' &&
    atSettlement.return_code !== null &&
    atSettlement.return_at === 'settlement'
  )
    return endUnsettled(deps, ctx, row, 'returned', atSettlement.return_code);
  const transfer = await transferOf(ctx, row);
  await postHeld(deps, ctx, transfer, toAmount(transfer.amount));
  const settledAt = storedTime(ctx.now);
  const later =
    atSettlement !== undefined && row.rail === 'ach' && atSettlement.return_at !== 'settlement'
      ? atSettlement
      : undefined;
  return changed(deps, ctx, {
    ...row,
    status: 'settled',
    settled_at: settledAt,
    due_at: later === undefined ? null : storedTime(new Date(ctx.now.getTime() + durationMs(later.return_at!))),
    due_action: later === undefined ? null : 'return',
    due_return_code: later?.return_code ?? null,
  });
}

/** An ISO 8601 duration of days, hours and minutes (`P2D`, `PT36H`, `P1DT12H`) in milliseconds. */
export function durationMs(duration: string): number {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/.exec(duration);
  if (match === null) return Number.NaN;
  const [, days, hours, minutes] = match;
  return ((Number(days ?? 0) * 24 + Number(hours ?? 0)) * 60 + Number(minutes ?? 0)) * 60_000;
}

/**
 * The step due on a payment, at `ctx.now`. Returns the payment as it then is. A step the ledger refuses because the
 * account is frozen moves nothing and waits: it is due again at 09:00 New York the next business day, so a payment
 * settles (or is returned) once its account is unfrozen. A return whose account has since closed is dropped: the
 * payment stays settled (docs/api.md#bank-account-numbers-and-payments).
 */
export async function runStep(
  deps: MoneyDeps,
  rules: RuleBook,
  ctx: WriteContext,
  row: PaymentsTable,
): Promise<PaymentsTable> {
  const before = ctx.trx.writeCount();
  try {
    switch (row.due_action) {
      case 'submit':
        return await submit(deps, rules, ctx, row);
      case 'settle':
        return await settle(deps, rules, ctx, row);
      case 'return':
        return await returnSettled(deps, ctx, row, row.due_return_code!);
      default:
        return row;
    }
  } catch (error) {
    const waits = error instanceof ApiError && (error.code === 'account_frozen' || error.code === 'account_closed');
    // The ledger refuses before it writes (ledger/move.ts): a refusal after a write is a bug, not a wait.
    if (!waits || ctx.trx.writeCount() !== before) throw error;
    const later =
      error.code === 'account_frozen'
        ? { due_at: storedTime(new Date(nextBusinessMorning(ctx.now.getTime()))) }
        : { ...nothingDue };
    const waiting = { ...row, ...later };
    repo.updatePayment(ctx.trx, waiting);
    return waiting;
  }
}

/** The outcomes a payment can be given (a cancel; the sandbox's settle, return and reject on demand). */
export const outcomes = {
  /** Only while it waits for submission: the hold ends, nothing moves. */
  async cancel(deps: MoneyDeps, ctx: WriteContext, row: PaymentsTable): Promise<PaymentsTable> {
    if (row.direction !== 'outbound' || row.status !== 'pending_submission')
      throw paymentState(row, 'only a payment out in pending_submission can be canceled');
    return endUnsettled(deps, ctx, row, 'canceled', null);
  },
  /** Submits it if it was not, then settles it, the rules applying as they would when their moment comes. */
  async settle(deps: MoneyDeps, rules: RuleBook, ctx: WriteContext, row: PaymentsTable): Promise<PaymentsTable> {
    if (row.direction !== 'outbound' || (row.status !== 'pending_submission' && row.status !== 'submitted'))
      throw paymentState(row, 'only a payment out not yet settled can be settled');
    let current = row;
    if (current.status === 'pending_submission') current = await submit(deps, rules, ctx, current);
    if (current.status === 'submitted') current = await settle(deps, rules, ctx, current);
    return current;
  },
  /** ACH: before settlement the hold ends; after it (within 60 days), the transfer is reversed. */
  async return(deps: MoneyDeps, ctx: WriteContext, row: PaymentsTable, code: string): Promise<PaymentsTable> {
    if (row.direction !== 'outbound' || row.rail !== 'ach')
      throw paymentState(row, 'only an ACH payment out can be returned (a wire or RTP payment is rejected)');
    if (row.status === 'pending_submission' || row.status === 'submitted')
      return endUnsettled(deps, ctx, row, 'returned', code);
    if (row.status !== 'settled')
      throw paymentState(row, 'only a payment not yet returned, rejected or canceled can be returned');
    if (ctx.now.getTime() - Date.parse(row.settled_at!) > RETURN_WINDOW_MS)
      throw paymentState(row, 'a settled ACH payment can be returned for 60 days after settlement only');
    return returnSettled(deps, ctx, row, code);
  },
  /** Wire and RTP, before settlement: the hold ends. */
  async reject(deps: MoneyDeps, ctx: WriteContext, row: PaymentsTable): Promise<PaymentsTable> {
    if (row.direction !== 'outbound' || row.rail === 'ach')
      throw paymentState(row, 'only a wire or RTP payment out can be rejected (an ACH payment is returned)');
    if (row.status !== 'pending_submission' && row.status !== 'submitted')
      throw paymentState(row, 'only a payment not yet settled can be rejected');
    return endUnsettled(deps, ctx, row, 'rejected', null);
  },
};

const RETURN_WINDOW_MS = 60 * 86_400_000;

export async function retrievePayment(deps: MoneyDeps, owner: Principal, id: string): Promise<Payment> {
  const row = isIdOf(PAYMENT.prefix, id) ? await findOwned(deps.db, 'payments', owner, id) : undefined;
  if (row === undefined) throw notFound(PAYMENT, id);
  return paymentFromRow(row);
}

export async function listPayments(deps: MoneyDeps, owner: Principal, query: PaymentListQuery): Promise<PaymentList> {
  const accountId = query.account_id;
  if (accountId !== undefined && !(isIdOf(ACCOUNT.prefix, accountId) && (await findAccount(deps.db, owner, accountId))))
    throw accountNotFound(accountId, 'account_id');
  const page = await listPage(
    query,
    async (id) => isIdOf(PAYMENT.prefix, id) && (await findOwned(deps.db, 'payments', owner, id)) !== undefined,
    (take, cursor) =>
      pageOwned(deps.db, 'payments', owner, take, cursor, (q) => {
        let narrowed = q;
        if (accountId !== undefined) narrowed = narrowed.where('account_id', '=', accountId);
        if (query.status !== undefined) narrowed = narrowed.where('status', '=', query.status);
        if (query.rail !== undefined) narrowed = narrowed.where('rail', '=', query.rail);
        if (query.direction !== undefined) narrowed = narrowed.where('direction', '=', query.direction);
        return narrowed;
      }),
  );
  return { object: 'list', data: page.rows.map(paymentFromRow), has_more: page.hasMore };
}
