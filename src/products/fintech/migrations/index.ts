import type { Migration } from 'kysely';
import * as m20261122T1000 from './2026-11-22T1000_ledger.ts';
import * as m20261122T1200 from './2026-11-22T1200_account_ein_last4.ts';
import * as m20261124T0100 from './2026-11-24T0100_ledger_account_status.ts';
import * as m20261124T1401 from './2026-11-24T1401_fintech_lists_in_commit_order.ts';
import * as m20261125T0100 from './2026-11-25T0100_pending_transfers_and_metadata.ts';
import * as m20261126T1100 from './2026-11-26T1100_reversals_balances_nicknames.ts';
import * as m20261128T0200 from './2026-11-28T0200_answered_moments.ts';
import * as m20261128T0500 from './2026-11-28T0500_payments.ts';
import * as m20261128T0600 from './2026-11-28T0600_payment_traces.ts';
import * as m20261128T0700 from './2026-11-28T0700_ach_files.ts';
import * as m20261128T0710 from './2026-11-28T0710_bank_statements.ts';

/**
 * Fintech's own migrations, by timestamped name. Its first table, `accounts`, was created by the platform's first
 * migration (2026-11-21T1200), which predates per-product migrations and stays where it is (released migrations
 * are never edited or moved: their names are recorded in every database).
 */
export const FINTECH_MIGRATIONS: Record<string, Migration> = {
  '2026-11-22T1000_ledger': m20261122T1000,
  '2026-11-22T1200_account_ein_last4': m20261122T1200,
  '2026-11-24T0100_ledger_account_status': m20261124T0100,
  '2026-11-24T1401_fintech_lists_in_commit_order': m20261124T1401,
  '2026-11-25T0100_pending_transfers_and_metadata': m20261125T0100,
  '2026-11-26T1100_reversals_balances_nicknames': m20261126T1100,
  '2026-11-28T0200_answered_moments': m20261128T0200,
  '2026-11-28T0500_payments': m20261128T0500,
  '2026-11-28T0600_payment_traces': m20261128T0600,
  '2026-11-28T0700_ach_files': m20261128T0700,
  '2026-11-28T0710_bank_statements': m20261128T0710,
};
