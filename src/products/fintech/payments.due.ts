import type { DueItem, DueSource } from '../../platform/clock/due.ts';
import { paymentsDue } from './payments.repository.ts';
import { ruleBook } from './payments.rules.ts';
import { lockPayment, type PaymentDeps } from './payments.service.ts';
import { runStep } from './payments.steps.ts';
import type { MoneyDeps } from './shared.ts';
import { expireIfDue } from './transfers.expiry.ts';

/** What of payments falls due on the sandbox clock (docs/api.md#the-sandbox-clock). */

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
