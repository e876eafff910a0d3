import type { Trx } from '../../../db/database.ts';
import { preparedSend } from '../../../db/prepared.ts';
import type { Mode } from '../../../platform/auth/principal.ts';
import type { LedgerAccountsTable } from '../tables.ts';

/**
 * An org's system accounts, per mode and currency: `funding`, the other side of every sandbox deposit and withdrawal,
 * and one clearing account per payment rail, the other side of every payment (docs/api.md#bank-account-numbers-and-payments).
 */
export type SystemPurpose = 'funding' | 'clearing_ach' | 'clearing_wire' | 'clearing_rtp';

/**
 * A system account's id. It is derived, not drawn, so that it needs no lookup and two first uses cannot create two. A
 * system account is never shown as an account object (a payment's transfer names its clearing account by this id) and
 * may go negative (by at most 2^53 − 1, the bound of every balance).
 */
export function systemAccountId(
  orgId: string,
  mode: Mode,
  currency: string,
  purpose: SystemPurpose = 'funding',
): string {
  const base = `sys_${orgId}_${mode}_${currency}`;
  return purpose === 'funding' ? base : `${base}_${purpose.slice('clearing_'.length)}`;
}

const SYSTEM_ID = /^sys_.+_(?:live|sandbox)_[A-Z]{3}(?:_(ach|wire|rtp))?$/;

/** The purpose of a system account's id; undefined for a customer account's. */
export function systemPurposeOf(id: string): SystemPurpose | undefined {
  const match = SYSTEM_ID.exec(id);
  if (match === null) return undefined;
  return match[1] === undefined ? 'funding' : (`clearing_${match[1]}` as SystemPurpose);
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
export function ensureSystemAccount(
  trx: Trx,
  orgId: string,
  mode: Mode,
  currency: string,
  now: string,
  purpose: SystemPurpose = 'funding',
): string {
  const id = systemAccountId(orgId, mode, currency, purpose);
  insertIfAbsent(trx, { id, org_id: orgId, mode, currency, created_at: now });
  return id;
}
