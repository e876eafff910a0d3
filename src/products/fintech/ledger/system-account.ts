import type { Trx } from '../../../db/database.ts';
import type { Mode } from '../../../platform/keys/principal.ts';

/**
 * The system funding account of an org, mode and currency: the other side of every sandbox simulation. Its id is
 * derived, not drawn, so that it needs no lookup and two first deposits cannot create two. It is never shown as an
 * account object and may go negative (by at most 2^53 − 1, the bound of every balance).
 */
export function systemAccountId(orgId: string, mode: Mode, currency: string): string {
  return `sys_${orgId}_${mode}_${currency}`;
}

/** Creates the system account on first use; a concurrent first use waits for the other insert, then skips. */
export async function ensureSystemAccount(
  trx: Trx,
  orgId: string,
  mode: Mode,
  currency: string,
  now: string,
): Promise<string> {
  const id = systemAccountId(orgId, mode, currency);
  await trx
    .insertInto('ledger_accounts')
    .values({
      id,
      org_id: orgId,
      mode,
      currency,
      kind: 'system',
      status: 'active',
      balance: 0,
      entry_count: 0,
      created_at: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return id;
}
