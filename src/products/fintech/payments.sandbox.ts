import type { Principal } from '../../platform/auth/principal.ts';
import { requireSandbox } from '../../platform/auth/sandbox.ts';
import { ApiError } from '../../platform/http/errors.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { contextOf } from '../../platform/secrets/rotate.ts';
import { changeExternal, checkRoutingNumber, SEALED_EXTERNAL_NUMBER } from './external-accounts.service.ts';
import type { ChangeCode } from './payments.returns.ts';
import { ruleBook } from './payments.rules.ts';
import type { NotificationOfChangeBody } from './payments.sandbox.schema.ts';
import type { Payment } from './payments.schema.ts';
import { lockPayment, type PaymentDeps } from './payments.service.ts';
import { outcomes } from './payments.steps.ts';
import { paymentFromRow } from './payments.view.ts';

/**
 * The sandbox's outcomes on demand for a payment (docs/api.md#bank-account-numbers-and-payments): settle, return,
 * reject now, and a notification of change. Money arriving is payments.inbound.ts's; rules are payments.rules.ts's;
 * what falls due on the clock is payments.due.ts's. Sandbox keys only.
 */

export async function simulateSettlement(
  deps: PaymentDeps,
  ctx: WriteContext<Principal>,
  id: string,
): Promise<Payment> {
  requireSandbox(ctx.owner);
  return paymentFromRow(await outcomes.settle(deps, ruleBook(deps), ctx, await lockPayment(ctx, id)));
}

export async function simulateReturn(
  deps: PaymentDeps,
  ctx: WriteContext<Principal>,
  id: string,
  code: string,
): Promise<Payment> {
  requireSandbox(ctx.owner);
  return paymentFromRow(await outcomes.return(deps, ctx, await lockPayment(ctx, id), code));
}

export async function simulateRejection(deps: PaymentDeps, ctx: WriteContext<Principal>, id: string): Promise<Payment> {
  requireSandbox(ctx.owner);
  return paymentFromRow(await outcomes.reject(deps, ctx, await lockPayment(ctx, id)));
}

/** A notification of change: the receiving bank's correction of the external account a payment went to. */
export async function simulateNotificationOfChange(
  deps: PaymentDeps,
  ctx: WriteContext<Principal>,
  id: string,
  body: NotificationOfChangeBody,
): Promise<Payment> {
  requireSandbox(ctx.owner);
  const payment = await lockPayment(ctx, id);
  if (payment.direction !== 'outbound' || payment.rail !== 'ach' || payment.status === 'canceled')
    throw new ApiError(
      'payment_state_invalid',
      `Payment ${payment.id} is ${payment.status}; a notification of change answers an ACH payment out that was sent.`,
      { param: 'id' },
    );
  const external = await ctx.trx
    .selectFrom('external_accounts')
    .selectAll()
    .where('id', '=', payment.external_account_id!)
    .executeTakeFirstOrThrow();
  const { routing, account } = corrected(body.code, body.corrected_data);
  if (routing !== undefined) checkRoutingNumber(routing, 'corrected_data');
  await changeExternal(deps, ctx, external, {
    ...external,
    routing_number: routing ?? external.routing_number,
    ...(account === undefined
      ? {}
      : {
          account_number: deps.secrets.seal(account, contextOf(SEALED_EXTERNAL_NUMBER)),
          account_number_last4: account.slice(-4),
        }),
  });
  return paymentFromRow(payment);
}

function corrected(code: ChangeCode, data: string): { routing?: string; account?: string } {
  const refuse = (what: string) =>
    new ApiError('parameter_invalid', `corrected_data for ${code} must be ${what}.`, { param: 'corrected_data' });
  if (code === 'C01') {
    if (!/^[0-9]{4,17}$/.test(data)) throw refuse('the account number, 4–17 digits');
    return { account: data };
  }
  if (code === 'C02') {
    if (!/^[0-9]{9}$/.test(data)) throw refuse('the routing number, 9 digits');
    return { routing: data };
  }
  const match = /^([0-9]{9}) ([0-9]{4,17})$/.exec(data);
  if (match === null) throw refuse('the routing number (9 digits), a space, and the account number (4–17 digits)');
  return { routing: match[1]!, account: match[2]! };
}
