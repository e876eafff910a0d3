import type { Principal } from '../../platform/auth/principal.ts';
import { requireSandbox } from '../../platform/auth/sandbox.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { findNumber, SANDBOX_ROUTING_NUMBER } from './account-numbers.service.ts';
import { cleanDescription, cleanField } from './description.ts';
import type { Minor } from './ledger/amount.ts';
import { move } from './ledger/move.ts';
import { insertPayment } from './payments.repository.ts';
import type { InboundPaymentBody } from './payments.sandbox.schema.ts';
import type { Payment } from './payments.schema.ts';
import { PAYMENT, type PaymentDeps, paymentTransfer } from './payments.service.ts';
import { paymentFromRow } from './payments.view.ts';
import { TRANSFER } from './shared.ts';
import type { AccountNumbersTable, PaymentsTable, Rail, TransfersTable } from './tables.ts';
import * as transfers from './transfers.repository.ts';
import { transferFromRow } from './transfers.view.ts';

/** Sandbox: money arriving at an account number, or pulled from it (docs/api.md#bank-account-numbers-and-payments). */

/** What an inbound payment's refusal by the ledger becomes: an ACH return code, the payment moving no money. */
const RETURNED_FOR: Record<string, string> = {
  account_closed: 'R02',
  account_frozen: 'R16',
  insufficient_funds: 'R01',
};

/**
 * Money arriving at an account number (a credit), or pulled from it by someone else (an ACH debit). It settles at once
 * as a posted transfer between the rail's clearing account and the account (one movement: ledger/move.ts), or is
 * returned, moving nothing: R02 (number disabled, account closed), R16 (frozen), R29 (debits blocked), R01 (short).
 */
export async function simulateInboundPayment(
  deps: PaymentDeps,
  ctx: WriteContext<Principal>,
  body: InboundPaymentBody,
): Promise<Payment> {
  requireSandbox(ctx.owner);
  const { trx, owner } = ctx;
  if (body.direction === 'debit' && body.rail !== 'ach')
    throw new ApiError(
      'parameter_invalid',
      'Only ACH pulls money by debit: send "rail": "ach", or "direction": "credit".',
      {
        param: 'rail',
      },
    );
  const originator = cleanField(body.originator_name, 140, 'originator_name');
  const description = cleanDescription(body.description);
  const found = await findNumber(trx, deps.secrets, SANDBOX_ROUTING_NUMBER, body.account_number);
  if (found === undefined || found.org_id !== owner.orgId || found.mode !== owner.mode)
    throw new ApiError('resource_not_found', `No account number of yours ends in ${body.account_number.slice(-4)}.`, {
      param: 'account_number',
    });
  const inbound = { amount: body.amount, rail: body.rail, direction: body.direction, originator, description };
  return paymentFromRow(await receivePayment(deps, ctx, found, inbound));
}

/** Money arriving at an account number, as a bank reports it (the sandbox simulation; a live bank statement line). */
export interface Inbound {
  amount: Minor;
  rail: Rail;
  direction: 'credit' | 'debit';
  originator: string | null;
  description: string | null;
}

/**
 * An inbound payment to `found`, in the write it is handed (the number's owner's): settled at once as a posted
 * transfer between the rail's clearing account and the account, or returned moving nothing (R02, R16, R29, R01), with
 * its events. The sandbox's simulation and a live statement's credit line (the bank files) both come here.
 */
export async function receivePayment(
  deps: PaymentDeps,
  ctx: WriteContext,
  found: AccountNumbersTable,
  body: Inbound,
): Promise<PaymentsTable> {
  const { trx, owner } = ctx;
  const { description } = body;
  const id = newId(PAYMENT.prefix, ctx.now.getTime());
  let returnCode: string | null = null;
  if (found.status === 'disabled') returnCode = 'R02';
  else if (body.direction === 'debit' && found.inbound_debits === 'blocked') returnCode = 'R29';
  let transfer: TransfersTable | undefined;
  let at = ctx.now;
  if (returnCode === null) {
    const account = { account: found.account_id, param: 'account_number' };
    const clearing = { system: `clearing_${body.rail}` as const };
    try {
      const moved = await move(trx, {
        owner,
        debit: body.direction === 'credit' ? clearing : account,
        credit: body.direction === 'credit' ? account : clearing,
        amount: body.amount,
        currency: 'USD',
        effect: { kind: 'post' },
        now: ctx.now,
        journal: { id: (time) => newId(TRANSFER.prefix, time.getTime()), source: 'transfer', description },
      });
      at = moved.at;
      transfer = paymentTransfer(owner, moved, { amount: body.amount, description, paymentId: id, held: false });
      transfers.insertTransfer(trx, transfer);
      await deps.events.emit({ ...ctx, now: at }, [
        { type: 'fintech.transfer.created', object: transferFromRow(transfer) },
        ...moved.transactions,
      ]);
    } catch (error) {
      // The ledger refuses before it writes anything (ledger/move.ts); a refusal it names becomes a return.
      const code = error instanceof ApiError ? RETURNED_FOR[error.code] : undefined;
      if (code === undefined) throw error;
      returnCode = code;
    }
  }
  const time = storedTime(at);
  const row: PaymentsTable = {
    id,
    org_id: owner.orgId,
    mode: owner.mode,
    direction: 'inbound',
    rail: body.rail,
    account_id: found.account_id,
    external_account_id: null,
    account_number_id: found.id,
    amount: body.amount,
    currency: 'USD',
    status: returnCode === null ? 'settled' : 'returned',
    return_code: returnCode,
    transfer_id: transfer?.id ?? null,
    originator_name: body.originator,
    description,
    metadata: '{}',
    submitted_at: time,
    settled_at: returnCode === null ? time : null,
    returned_at: returnCode === null ? null : time,
    created_at: time,
    due_at: null,
    due_action: null,
    due_return_code: null,
    ach_file_id: null,
    trace_number: null,
  };
  insertPayment(trx, row);
  await deps.events.emit({ ...ctx, now: at }, [{ type: 'fintech.payment.created', object: paymentFromRow(row) }]);
  return row;
}
