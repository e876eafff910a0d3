import type { Db, Trx } from '../../db/database.ts';
import { pageOwned } from '../../db/owned.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import type { DueItem, DueSource } from '../../platform/clock/due.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { type IdKind, isIdOf, newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { contextOf } from '../../platform/secrets/rotate.ts';
import { findNumber, SANDBOX_ROUTING_NUMBER } from './account-numbers.service.ts';
import { cleanDescription, cleanField } from './description.ts';
import { changeExternal, checkRoutingNumber, SEALED_EXTERNAL_NUMBER } from './external-accounts.service.ts';
import { move } from './ledger/move.ts';
import { insertPayment, paymentsDue, updatePayment } from './payments.repository.ts';
import type { ChangeCode } from './payments.returns.ts';
import type {
  InboundPaymentBody,
  NotificationOfChangeBody,
  PaymentRule,
  PaymentRuleCreateBody,
  PaymentRuleDeleted,
  PaymentRuleList,
  PaymentRuleListQuery,
} from './payments.sandbox.schema.ts';
import type { Payment } from './payments.schema.ts';
import {
  durationMs,
  lockPayment,
  outcomes,
  PAYMENT,
  type PaymentDeps,
  type RuleBook,
  runStep,
} from './payments.service.ts';
import { paymentFromRow, paymentRuleFromRow } from './payments.view.ts';
import { type MoneyDeps, TRANSFER } from './shared.ts';
import type { PaymentRulesTable, PaymentsTable, TransfersTable } from './tables.ts';
import { expireIfDue } from './transfers.expiry.ts';
import * as transfers from './transfers.repository.ts';
import { transferFromRow } from './transfers.view.ts';

/**
 * The sandbox's side of payments (docs/api.md#bank-account-numbers-and-payments): money arriving (inbound credits and
 * debits to account numbers, with the automatic returns), outcomes on demand, the rules that return or reject what
 * matches when its moment comes, and what falls due on the org's clock (each payment's next step, each pending
 * transfer's expiry). Sandbox keys only.
 */

export const PAYMENT_RULE: IdKind = { noun: 'payment rule', prefix: 'prule' };
export const SEALED_RULE_NUMBER = { table: 'payment_rules', column: 'match_account_number' };

export function sandboxOnly(owner: { mode: string }): void {
  if (owner.mode !== 'sandbox')
    throw new ApiError('permission_denied', 'Sandbox simulations need a sandbox key (sk_test_…).');
}

// ---- Rules -------------------------------------------------------------------------------------------------

const insertRule = preparedInsert('payment_rules', {
  id: true,
  org_id: true,
  mode: true,
  match_amount: true,
  match_rail: true,
  match_account_number: true,
  match_last4: true,
  return_code: true,
  return_at: true,
  reject: true,
  created_at: true,
});

/** The longest a rule may wait after settlement: 60 days, as long as an ACH return may come. */
const MAX_AFTER_MS = 60 * 86_400_000;

export async function createPaymentRule(
  deps: PaymentDeps,
  ctx: WriteContext<Principal>,
  body: PaymentRuleCreateBody,
): Promise<PaymentRule> {
  sandboxOnly(ctx.owner);
  const action = body.action;
  const rail = body.match.rail;
  if ('return' in action) {
    if (rail !== undefined && rail !== 'ach')
      throw new ApiError('parameter_invalid', `A ${rail} payment is rejected, not returned: use {"reject": true}.`, {
        param: 'action',
      });
    if (action.at !== 'submission' && action.at !== 'settlement') {
      const after = durationMs(action.at);
      if (!(after > 0 && after <= MAX_AFTER_MS))
        throw new ApiError(
          'parameter_invalid',
          'action.at must be submission, settlement, or a duration after settlement from PT1M to P60D, such as P2D.',
          { param: 'action.at' },
        );
    }
  } else if (rail === 'ach')
    throw new ApiError(
      'parameter_invalid',
      'An ACH payment is returned, not rejected: use {"return": "R01", "at": …}.',
      {
        param: 'action',
      },
    );
  const number = body.match.external_account_number;
  const row: PaymentRulesTable = {
    id: newId(PAYMENT_RULE.prefix, ctx.now.getTime()),
    org_id: ctx.owner.orgId,
    mode: ctx.owner.mode,
    match_amount: body.match.amount ?? null,
    match_rail: rail ?? null,
    match_account_number: number === undefined ? null : deps.secrets.seal(number, contextOf(SEALED_RULE_NUMBER)),
    match_last4: number?.slice(-4) ?? null,
    return_code: 'return' in action ? action.return : null,
    return_at: 'return' in action ? action.at : null,
    reject: 'reject' in action ? 1 : 0,
    created_at: ctx.now.toISOString(),
  };
  insertRule(ctx.trx, row);
  if (row.return_at !== null && row.return_at !== 'submission' && row.return_at !== 'settlement')
    await scheduleFor(deps, ctx, row);
  return paymentRuleFromRow(row);
}

/**
 * A rule that returns a duration after settlement also applies to payments already settled whose moment is still to
 * come (settled less than that duration ago): their return is scheduled now, unless something else is due on them.
 */
async function scheduleFor(deps: PaymentDeps, ctx: WriteContext, rule: PaymentRulesTable): Promise<void> {
  const after = durationMs(rule.return_at!);
  const since = storedTime(new Date(ctx.now.getTime() - after));
  const settled = await ctx.trx
    .selectFrom('payments')
    .selectAll()
    .where('org_id', '=', rule.org_id)
    .where('mode', '=', 'sandbox')
    .where('direction', '=', 'outbound')
    .where('rail', '=', 'ach')
    .where('status', '=', 'settled')
    .where('due_at', 'is', null)
    .where('settled_at', '>=', since)
    .execute();
  const matches = matcher(deps, ctx.trx);
  for (const payment of settled) {
    if (!(await matches(rule, payment))) continue;
    const due = {
      due_at: storedTime(new Date(Date.parse(payment.settled_at!) + after)),
      due_action: 'return' as const,
    };
    updatePayment(ctx.trx, { ...payment, ...due, due_return_code: rule.return_code });
  }
}

export async function listPaymentRules(
  deps: MoneyDeps,
  owner: Principal,
  query: PaymentRuleListQuery,
): Promise<PaymentRuleList> {
  sandboxOnly(owner);
  const page = await listPage(
    query,
    async (id) => isIdOf(PAYMENT_RULE.prefix, id) && (await ruleOf(deps.db, owner, id)) !== undefined,
    (take, cursor) => pageOwned(deps.db, 'payment_rules', owner, take, cursor),
  );
  return { object: 'list', data: page.rows.map(paymentRuleFromRow), has_more: page.hasMore };
}

const ruleOf = (db: Db | Trx, owner: Principal, id: string) =>
  db
    .selectFrom('payment_rules')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();

export async function deletePaymentRule(ctx: WriteContext<Principal>, id: string): Promise<PaymentRuleDeleted> {
  sandboxOnly(ctx.owner);
  const row = isIdOf(PAYMENT_RULE.prefix, id) ? await ruleOf(ctx.trx, ctx.owner, id) : undefined;
  if (row === undefined) throw notFound(PAYMENT_RULE, id);
  await ctx.trx.deleteFrom('payment_rules').where('id', '=', row.id).execute();
  return { id: row.id, object: 'sandbox.payment_rule', deleted: true };
}

/** The rules of the payment's org, read when a payment's moment comes: the oldest that matches and applies then. */
export function ruleBook(deps: PaymentDeps): RuleBook {
  return {
    async match(ctx, payment, moment) {
      if (payment.mode !== 'sandbox' || payment.direction !== 'outbound') return undefined;
      const rules = await ctx.trx
        .selectFrom('payment_rules')
        .selectAll()
        .where('org_id', '=', payment.org_id)
        .where('mode', '=', 'sandbox')
        .orderBy('id')
        .execute();
      const matches = matcher(deps, ctx.trx);
      for (const rule of rules) if (applies(rule, payment.rail, moment) && (await matches(rule, payment))) return rule;
      return undefined;
    },
  };
}

/** Whether a payment out matches a rule's `match` (its external account's number opened at most once). */
function matcher(deps: PaymentDeps, trx: Trx) {
  const numbers = new Map<string, string>();
  return async (rule: PaymentRulesTable, payment: PaymentsTable): Promise<boolean> => {
    if (rule.match_amount !== null && Number(rule.match_amount) !== Number(payment.amount)) return false;
    if (rule.match_rail !== null && rule.match_rail !== payment.rail) return false;
    if (rule.match_account_number === null) return true;
    const external = payment.external_account_id!;
    let number = numbers.get(external);
    if (number === undefined) {
      number = await externalNumberOf(deps, trx, external);
      numbers.set(external, number);
    }
    return deps.secrets.open(rule.match_account_number, contextOf(SEALED_RULE_NUMBER)) === number;
  };
}

/** Whether a rule acts at this moment: a return at submission, or at settlement (then, or a duration after it). */
function applies(rule: PaymentRulesTable, rail: string, moment: 'submission' | 'settlement'): boolean {
  if (rule.reject === 1) return rail !== 'ach' && moment === 'submission';
  if (rail !== 'ach') return false;
  return moment === 'submission' ? rule.return_at === 'submission' : rule.return_at !== 'submission';
}

async function externalNumberOf(deps: PaymentDeps, trx: Trx, id: string): Promise<string> {
  const row = await trx
    .selectFrom('external_accounts')
    .select('account_number')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return deps.secrets.open(row.account_number, contextOf(SEALED_EXTERNAL_NUMBER));
}

// ---- Outcomes on demand ------------------------------------------------------------------------------------

export async function simulateSettlement(
  deps: PaymentDeps,
  ctx: WriteContext<Principal>,
  id: string,
): Promise<Payment> {
  sandboxOnly(ctx.owner);
  return paymentFromRow(await outcomes.settle(deps, ruleBook(deps), ctx, await lockPayment(ctx, id)));
}

export async function simulateReturn(
  deps: PaymentDeps,
  ctx: WriteContext<Principal>,
  id: string,
  code: string,
): Promise<Payment> {
  sandboxOnly(ctx.owner);
  return paymentFromRow(await outcomes.return(deps, ctx, await lockPayment(ctx, id), code));
}

export async function simulateRejection(deps: PaymentDeps, ctx: WriteContext<Principal>, id: string): Promise<Payment> {
  sandboxOnly(ctx.owner);
  return paymentFromRow(await outcomes.reject(deps, ctx, await lockPayment(ctx, id)));
}

/** A notification of change: the receiving bank's correction of the external account a payment went to. */
export async function simulateNotificationOfChange(
  deps: PaymentDeps,
  ctx: WriteContext<Principal>,
  id: string,
  body: NotificationOfChangeBody,
): Promise<Payment> {
  sandboxOnly(ctx.owner);
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

// ---- Money in ----------------------------------------------------------------------------------------------

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
  sandboxOnly(ctx.owner);
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
      transfer = {
        id: moved.id,
        org_id: owner.orgId,
        mode: owner.mode,
        from_account_id: moved.debitId,
        to_account_id: moved.creditId,
        amount: body.amount,
        currency: 'USD',
        description,
        status: 'posted',
        pending: 0,
        posted_amount: body.amount,
        expires_at: null,
        resolved_at: null,
        amount_reversed: 0,
        metadata: '{}',
        created_at: moved.atText,
        payment_id: id,
      };
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
    originator_name: originator,
    description,
    metadata: '{}',
    submitted_at: time,
    settled_at: returnCode === null ? time : null,
    returned_at: returnCode === null ? null : time,
    created_at: time,
    due_at: null,
    due_action: null,
    due_return_code: null,
  };
  insertPayment(trx, row);
  const payment = paymentFromRow(row);
  await deps.events.emit({ ...ctx, now: at }, [{ type: 'fintech.payment.created', object: payment }]);
  return payment;
}

// ---- What falls due on the sandbox clock -------------------------------------------------------------------

/** Each sandbox payment's next step, at its moment. */
export function paymentsDueSource(deps: PaymentDeps): DueSource {
  const rules = ruleBook(deps);
  return {
    what: 'payments',
    async next(db, orgId, upTo, limit) {
      const rows = await paymentsDue(db, orgId, upTo, limit);
      return rows.map(
        (row): DueItem => ({
          at: row.due_at!,
          async run(ctx) {
            // Locked and read again: another process may have run it, or a cancel ended it.
            const current = await lockPayment(ctx, row.id);
            if (current.due_at !== row.due_at || current.due_action !== row.due_action) return undefined;
            const after = await runStep(deps, rules, ctx, current);
            return after.due_at ?? undefined;
          },
        }),
      );
    },
    async orgsDue(db, upTo) {
      const rows = await db
        .selectFrom('payments')
        .select('org_id')
        .distinct()
        .where('mode', '=', 'sandbox')
        .where('due_at', 'is not', null)
        .where('due_at', '<=', upTo)
        .execute();
      return rows.map((row) => row.org_id);
    },
  };
}

/** Each sandbox pending transfer's expiry, at its `expires_at`. */
export function expiriesDueSource(deps: MoneyDeps): DueSource {
  return {
    what: 'pending transfer expiries',
    async next(db, orgId, upTo, limit) {
      const rows = await db
        .selectFrom('transfers')
        .select(['id', 'expires_at'])
        .where('status', '=', 'pending')
        .where('org_id', '=', orgId)
        .where('mode', '=', 'sandbox')
        .where('expires_at', '<=', upTo)
        .orderBy('expires_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ at: row.expires_at!, run: (ctx) => expireIfDue(deps, ctx, row.id) }));
    },
    // Expiries by real time are the expiry sweep's (transfers.expiry.ts); the clock's pass runs an org's only when its
    // clock runs ahead.
    orgsDue: async () => [],
  };
}
