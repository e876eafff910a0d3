import type { Db } from '../db/database.ts';
import type { Principal } from '../platform/auth/principal.ts';

/**
 * The full times of some of an account's transactions: the API shows a time to the minute, and a statement's CSV
 * (docs/dashboard.md#balances-and-statements) gives it to the second. A read of the dashboard's own, as the
 * overview's counts are; the transactions themselves come from the API's list.
 */
export async function entryTimes(db: Db, owner: Principal, accountId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .select(['e.id', 'e.created_at'])
    .where('a.org_id', '=', owner.orgId)
    .where('a.mode', '=', owner.mode)
    .where('e.account_id', '=', accountId)
    .where('e.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, new Date(r.created_at).toISOString()]));
}
