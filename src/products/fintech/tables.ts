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
  /** The integrator's own key-value pairs, as JSON (modules/metadata); `{}` when none. */
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
  /** The payment whose money this transfer moves (docs/api.md#bank-account-numbers-and-payments): only it moves it. */
  payment_id: string | null;
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

/** A bank account number of an account (docs/api.md#bank-account-numbers-and-payments). */
export interface AccountNumbersTable {
  id: string;
  org_id: string;
  mode: Mode;
  account_id: string;
  routing_number: string;
  /** Sealed (platform/secrets, context `account_numbers.account_number`): shown once, at creation. */
  account_number: string;
  last4: string;
  name: string | null;
  status: 'active' | 'disabled';
  inbound_debits: 'allowed' | 'blocked';
  created_at: string;
}

export interface ExternalAccountsTable {
  id: string;
  org_id: string;
  mode: Mode;
  routing_number: string;
  /** Sealed (context `external_accounts.account_number`); what is shown is its last four digits. */
  account_number: string;
  account_number_last4: string;
  account_holder_name: string;
  account_type: 'checking' | 'savings';
  status: string;
  metadata: string;
  created_at: string;
}

export type PaymentStatus = 'pending_submission' | 'submitted' | 'settled' | 'returned' | 'rejected' | 'canceled';
export type Rail = 'ach' | 'wire' | 'rtp';
export type DueAction = 'submit' | 'settle' | 'return';

export interface PaymentsTable {
  id: string;
  org_id: string;
  mode: Mode;
  direction: 'outbound' | 'inbound';
  rail: Rail;
  account_id: string;
  external_account_id: string | null;
  account_number_id: string | null;
  amount: Int64;
  currency: string;
  status: PaymentStatus;
  return_code: string | null;
  transfer_id: string | null;
  originator_name: string | null;
  description: string | null;
  metadata: string;
  submitted_at: string | null;
  settled_at: string | null;
  returned_at: string | null;
  created_at: string;
  /** The one step due next (sandbox), when; null when none is. */
  due_at: string | null;
  due_action: DueAction | null;
  due_return_code: string | null;
  /** Live ACH: the NACHA file that submitted it (`achf_…`) and its trace number there; null before. */
  ach_file_id: string | null;
  trace_number: string | null;
}

export interface PaymentRulesTable {
  id: string;
  org_id: string;
  mode: Mode;
  match_amount: Int64 | null;
  match_rail: Rail | null;
  /** Sealed, as an external account's number (context `payment_rules.match_account_number`). */
  match_account_number: string | null;
  match_last4: string | null;
  return_code: string | null;
  /** `submission`, `settlement` or an ISO 8601 duration after settlement. */
  return_at: string | null;
  reject: number;
  created_at: string;
}

declare module '../../db/tables.ts' {
  interface Tables {
    accounts: AccountsTable;
    ledger_accounts: LedgerAccountsTable;
    ledger_journals: LedgerJournalsTable;
    ledger_entries: LedgerEntriesTable;
    transfers: TransfersTable;
    transfer_reversals: TransferReversalsTable;
    account_numbers: AccountNumbersTable;
    external_accounts: ExternalAccountsTable;
    payments: PaymentsTable;
    payment_rules: PaymentRulesTable;
  }
}
