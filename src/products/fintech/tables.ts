import type { Mode } from '../../platform/keys/principal.ts';

export interface AccountsTable {
  id: string;
  org_id: string;
  mode: Mode;
  type: string;
  country: string;
  currency: string;
  /** Integer count of the currency's minor unit (bigint column). */
  available_balance: number;
  status: string;
  kyb_legal_name: string | null;
  /**
   * Kept for verification, sealed (platform/secrets, context `accounts.kyb_ein`); never returned or logged. Rows
   * from before encryption hold plain text until `cli secrets rotate`.
   */
  kyb_ein: string | null;
  /** What the API shows of the EIN. */
  kyb_ein_last4: string | null;
  created_at: string;
}

declare module '../../db/tables.ts' {
  interface Tables {
    accounts: AccountsTable;
  }
}
