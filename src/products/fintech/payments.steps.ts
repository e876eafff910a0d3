import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { toAmount } from './ledger/amount.ts';
import { endHold } from './ledger/move.ts';
import { achSettlement, nextBusinessMorning, wireSettlement } from './payments.calendar.ts';
import * as repo from './payments.repository.ts';
import { returnReasonOf } from './payments.returns.ts';
import { paymentFromRow } from './payments.view.ts';
import { reverse } from './reversals.service.ts';
import type { MoneyDeps } from './shared.ts';
import type { PaymentRulesTable, PaymentsTable, TransfersTable } from './tables.ts';
import { holdOf, lockTransfer, postHeld, resolveHeld } from './transfers.pending.ts';

/**
 * A payment's steps (docs/api.md#bank-account-numbers-and-payments): submission, settlement and a return after it,
 * each one movement of money or the end of a hold (ledger/move.ts), with the payment's change and its event; and the
 * outcomes a caller can give it (a cancel; the sandbox's settle, return and reject on demand).
 */

/** What a step may read of the rules of the payment's org (payments.rules.ts); live payments have none. */
export interface RuleBook {
  /** The oldest of the org's sandbox rules matching `payment` whose action applies at `moment`. */
  match(
    ctx: WriteContext,
    payment: PaymentsTable,
    moment: 'submission' | 'settlement',
  ): Promise<PaymentRulesTable | undefined>;
}

const paymentState = (row: PaymentsTable, wanted: string) =>
  new ApiError('payment_state_invalid', `Payment ${row.id} is ${row.status}; ${wanted}.`, { param: 'id' });

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

/**
 * A live ACH payment submitted by a bank file (the bank files' `ach-export`: docs/deploy.md, "Live money: the bank
 * files"): `submitted` now, with the file and its trace number there, by which the bank's settlement and return lines
 * name it. Its settlement comes from the bank's statement, not from a clock. Refused unless it waits for submission.
 */
export async function submitByFile(
  deps: MoneyDeps,
  ctx: WriteContext,
  row: PaymentsTable,
  file: { id: string; traceNumber: string },
): Promise<PaymentsTable> {
  if (row.mode !== 'live' || row.rail !== 'ach' || row.status !== 'pending_submission')
    throw paymentState(row, 'only a live ACH payment waiting for submission goes in a bank file');
  return changed(deps, ctx, {
    ...row,
    status: 'submitted',
    submitted_at: storedTime(ctx.now),
    ach_file_id: file.id,
    trace_number: file.traceNumber,
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
