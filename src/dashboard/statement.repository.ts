import type { Db } from '../db/database.ts';
import type { Principal } from '../platform/auth/principal.ts';

/**
 * What the API's transaction object leaves out, for some of an account's transactions: the full time (the API shows
 * a time to the minute; a statement's CSV gives it to the second), the other customer account of its journal (the
 * counterparty of a transfer or a reversal) and, for a reversal, the transfer it reverses
 * (docs/dashboard.md#balances-and-statements). Reads of the dashboard's own, as the overview's counts are; the
 * transactions themselves come from the API's list.
 */
export interface EntryContext {
  at: string;
  counterparty: { id: string; nickname: string | null } | null;
  /** The `tr_` a reversal's transaction moves money back for; null for any other source. */
  reverses: string | null;
}

export async function entryContexts(db: Db, owner: Principal, accountId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, EntryContext>();
  const rows = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .leftJoin('ledger_entries as o', (join) =>
      join.onRef('o.journal_id', '=', 'e.journal_id').onRef('o.account_id', '!=', 'e.account_id'),
    )
    .leftJoin('accounts as c', (join) =>
      join.onRef('c.id', '=', 'o.account_id').onRef('c.org_id', '=', 'a.org_id').onRef('c.mode', '=', 'a.mode'),
    )
    .leftJoin('transfer_reversals as r', (join) =>
      join.onRef('r.id', '=', 'e.journal_id').onRef('r.org_id', '=', 'a.org_id').onRef('r.mode', '=', 'a.mode'),
    )
    .select(['e.id', 'e.created_at', 'c.id as counterparty_id', 'c.nickname', 'r.transfer_id'])
    .where('a.org_id', '=', owner.orgId)
    .where('a.mode', '=', owner.mode)
    .where('e.account_id', '=', accountId)
    .where('e.id', 'in', ids)
    .execute();
  const contexts = new Map<string, EntryContext>();
  for (const r of rows) {
    const known = contexts.get(r.id);
    // A journal's other entries: the customer account among them (a sandbox simulation's is the funding account).
    if (known !== undefined && (known.counterparty !== null || r.counterparty_id === null)) continue;
    contexts.set(r.id, {
      at: new Date(r.created_at).toISOString(),
      counterparty: r.counterparty_id === null ? null : { id: r.counterparty_id, nickname: r.nickname },
      reverses: r.transfer_id ?? null,
    });
  }
  return contexts;
}
