import type { Mode } from '../../platform/auth/principal.ts';

/**
 * A 64-bit integer column as the drivers hand it back: node:sqlite gives a number, pg a decimal string.
 * Read it with `toAmount` (ledger/amount.ts), which refuses anything not exact.
 */
export type Int64 = number | string | bigint;

export type AccountStatus = 'active' | 'frozen' | 'closed';

export interface AccountsTable {
  id: string;
  org_id: string;
  mode: Mode;
  type: string;
  country: string;
  currency: string;
  status: AccountStatus;
  /** Why the account is frozen or closed; null while active. */
  status_reason: string | null;
  status_note: string | null;
  /** `api` or `operator`: who froze or closed it. */
  status_actor: string | null;
  closed_at: string | null;
  kyb_legal_name: string | null;
  /**
   * Kept for verification, sealed (platform/secrets, context `accounts.kyb_ein`); never returned or logged. Rows
   * from before encryption hold plain text until `cli secrets rotate`.
   */
  kyb_ein: string | null;
  /** What the API shows of the EIN. */
  kyb_ein_last4: string | null;
  /** The integrator's own key-value pairs, as JSON (platform/metadata); `{}` when none. */
  metadata: string;
  /** A label for people (docs/api.md#fintech-accounts); null when none. */
  nickname: string | null;
  created_at: string;
}

/** A balance: one per customer account (same id) and one system funding account per org, mode and currency. */
export interface LedgerAccountsTable {
  id: string;
  org_id: string;
  mode: Mode;
  currency: string;
  kind: 'customer' | 'system';
  /** The account's status (a copy of `accounts.status`, written with it); system accounts are always `active`. */
  status: AccountStatus;
  balance: Int64;
  /** What pending outgoing transfers reserve; `available` = balance − held, never below 0 for a customer. */
  held: Int64;
  entry_count: Int64;
  /** The time of the account's last entry: no later entry is earlier (ledger/time.ts); null before the first. */
  last_entry_at: string | null;
  /**
   * A moment a balance or a statement of the account was answered about: no later movement of it is earlier
   * (ledger/time.ts), so that the answer never changes. Null before the first such answer.
   */
  sealed_before: string | null;
  created_at: string;
}

export type SourceType = 'transfer' | 'sandbox_deposit' | 'sandbox_withdrawal' | 'transfer_reversal';

/** One movement of money; its id is the id of what caused it (a transfer, a sandbox simulation). Append-only. */
export interface LedgerJournalsTable {
  id: string;
  org_id: string;
  mode: Mode;
  currency: string;
  source_type: SourceType;
  description: string | null;
  created_at: string;
}

/** One signed line of a journal on one ledger account. Append-only. */
export interface LedgerEntriesTable {
  id: string;
  journal_id: string;
  account_id: string;
  amount: Int64;
  balance_after: Int64;
  /** 1, 2, 3, … per account: the ledger order in which balance_after accumulates. */
  account_seq: Int64;
  created_at: string;
}

export interface TransfersTable {
  id: string;
  org_id: string;
  mode: Mode;
  from_account_id: string;
  to_account_id: string;
  amount: Int64;
  currency: string;
  description: string | null;
  /** `pending` (holding `amount` on the sender), `posted`, `voided` or `expired`. */
  status: TransferStatus;
  /** 1 when made with `pending: true` (SQLite has no boolean). */
  pending: number;
  /** What the posting moved: `amount` for a plain transfer, the posted part for a pending one; null until posted. */
  posted_amount: Int64 | null;
  expires_at: string | null;
  /** When it left `pending`; null for a plain transfer and while pending. */
  resolved_at: string | null;
  /** What reversals moved back so far: 0 to `posted_amount` (the database refuses more). */
  amount_reversed: Int64;
  metadata: string;
  created_at: string;
}

/** A reversal: money of a posted transfer moved back, its journal's id its own (docs/api.md#correcting-a-transfer). */
export interface TransferReversalsTable {
  id: string;
  org_id: string;
  mode: Mode;
  transfer_id: string;
  amount: Int64;
  currency: string;
  description: string | null;
  metadata: string;
  created_at: string;
}

export type TransferStatus = 'pending' | 'posted' | 'voided' | 'expired';

declare module '../../db/tables.ts' {
  interface Tables {
    accounts: AccountsTable;
    ledger_accounts: LedgerAccountsTable;
    ledger_journals: LedgerJournalsTable;
    ledger_entries: LedgerEntriesTable;
    transfers: TransfersTable;
    transfer_reversals: TransferReversalsTable;
  }
}
