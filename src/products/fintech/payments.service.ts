import { findOwned, pageOwned } from '../../db/owned.ts';
import { metadataOnCreate } from '../../modules/metadata/index.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { type IdKind, isIdOf, newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { Owner, WriteContext } from '../../platform/operations/context.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import { findAccount } from './accounts.repository.ts';
import { cleanDescription } from './description.ts';
import type { Minor } from './ledger/amount.ts';
import { type Moved, move } from './ledger/move.ts';
import type { SystemPurpose } from './ledger/system-account.ts';
import { nextAchCutoff } from './payments.calendar.ts';
import * as repo from './payments.repository.ts';
import type { Payment, PaymentCreateBody, PaymentList, PaymentListQuery } from './payments.schema.ts';
import { type RuleBook, runStep } from './payments.steps.ts';
import { paymentFromRow } from './payments.view.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps, TRANSFER } from './shared.ts';
import type { PaymentsTable, Rail, TransfersTable } from './tables.ts';
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
 * return. In the sandbox the org's clock runs them as it reaches them (payments.due.ts declares them due); a step
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

const clearingOf = (rail: Rail): SystemPurpose => `clearing_${rail}`;

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
  const transfer = paymentTransfer(owner, moved, { amount: body.amount, description, paymentId: id, held: true });
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
    ach_file_id: null,
    trace_number: null,
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

/**
 * The transfer that moves a payment's money, as the movement made it: held (a payment out, until it settles) or
 * posted (money in, at once). Only the payment moves it (`payment_id`).
 */
export function paymentTransfer(
  owner: Owner,
  moved: Moved,
  p: { amount: Minor; description: string | null; paymentId: string; held: boolean },
): TransfersTable {
  return {
    id: moved.id,
    org_id: owner.orgId,
    mode: owner.mode,
    from_account_id: moved.debitId,
    to_account_id: moved.creditId,
    amount: p.amount,
    currency: 'USD',
    description: p.description,
    status: p.held ? 'pending' : 'posted',
    pending: p.held ? 1 : 0,
    posted_amount: p.held ? null : p.amount,
    expires_at: null,
    resolved_at: null,
    amount_reversed: 0,
    metadata: '{}',
    created_at: moved.atText,
    payment_id: p.paymentId,
  };
}

/** The caller's payment, locked; 404 when the caller cannot see it. */
export async function lockPayment(ctx: WriteContext, id: string): Promise<PaymentsTable> {
  const row = isIdOf(PAYMENT.prefix, id) ? await repo.lockPaymentRow(ctx.trx, ctx.owner, id) : undefined;
  if (row === undefined) throw notFound(PAYMENT, id);
  return row;
}

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
