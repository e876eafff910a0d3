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
  /** Kept for verification; never returned or logged. Only its last four digits leave the database. */
  kyb_ein: string | null;
  created_at: string;
}

declare module '../../db/tables.ts' {
  interface Tables {
    accounts: AccountsTable;
  }
}
