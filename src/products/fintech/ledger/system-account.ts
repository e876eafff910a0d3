import type { Trx } from '../../../db/database.ts';
import { preparedSend } from '../../../db/prepared.ts';
import type { Mode } from '../../../platform/auth/principal.ts';
import type { LedgerAccountsTable } from '../tables.ts';

/**
 * The system funding account of an org, mode and currency: the other side of every sandbox simulation. Its id is
 * derived, not drawn, so that it needs no lookup and two first deposits cannot create two. It is never shown as an
 * account object and may go negative (by at most 2^53 − 1, the bound of every balance).
 */
export function systemAccountId(orgId: string, mode: Mode, currency: string): string {
  return `sys_${orgId}_${mode}_${currency}`;
}

type NewSystem = Omit<
  LedgerAccountsTable,
  'balance' | 'held' | 'entry_count' | 'kind' | 'status' | 'last_entry_at' | 'sealed_before'
>;
const insertIfAbsent = preparedSend<NewSystem>(
  { id: true, org_id: true, mode: true, currency: true, created_at: true },
  (db, p) =>
    db
      .insertInto('ledger_accounts')
      .values({ ...p, kind: 'system', status: 'active', balance: 0, held: 0, entry_count: 0 })
      .onConflict((oc) => oc.column('id').doNothing()),
);

/**
 * Creates the system account on first use (issued, not awaited); a concurrent first use waits for the other insert,
 * then skips. Returns its id.
 */
export function ensureSystemAccount(trx: Trx, orgId: string, mode: Mode, currency: string, now: string): string {
  const id = systemAccountId(orgId, mode, currency);
  insertIfAbsent(trx, { id, org_id: orgId, mode, currency, created_at: now });
  return id;
}
