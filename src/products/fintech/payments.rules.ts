import type { Db, Trx } from '../../db/database.ts';
import { pageOwned } from '../../db/owned.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { requireSandbox } from '../../platform/auth/sandbox.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { type IdKind, isIdOf, newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { contextOf } from '../../platform/secrets/rotate.ts';
import { SEALED_EXTERNAL_NUMBER } from './external-accounts.service.ts';
import { updatePayment } from './payments.repository.ts';
import type {
  PaymentRule,
  PaymentRuleCreateBody,
  PaymentRuleDeleted,
  PaymentRuleList,
  PaymentRuleListQuery,
} from './payments.sandbox.schema.ts';
import type { PaymentDeps } from './payments.service.ts';
import { durationMs, type RuleBook } from './payments.steps.ts';
import { paymentRuleFromRow } from './payments.view.ts';
import type { MoneyDeps } from './shared.ts';
import type { PaymentRulesTable, PaymentsTable } from './tables.ts';

/**
 * The sandbox's payment rules (docs/api.md#bank-account-numbers-and-payments): payments out that match are returned
 * (ACH) or rejected (wire, RTP) when the rule's moment comes; the oldest matching rule applies.
 */

export const PAYMENT_RULE: IdKind = { noun: 'payment rule', prefix: 'prule' };
export const SEALED_RULE_NUMBER = { table: 'payment_rules', column: 'match_account_number' };

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
  requireSandbox(ctx.owner);
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
  requireSandbox(owner);
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
  requireSandbox(ctx.owner);
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
