import type { Mode } from '../platform/keys/key-format.ts';

/** Row types, kept apart from API types: a row never reaches a response as it is. Times are ISO 8601 UTC text with ms. */
export interface OrgsTable {
  id: string;
  /** Unique handle: the operator CLI's --org; a sandbox sign-up's org id. */
  name: string;
  display_name: string | null;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  mode: Mode;
  /** SHA-256 of the full key, hex; the key itself is never stored. */
  secret_hash: string;
  hint: string;
  created_at: string;
  revoked_at: string | null;
}

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

export interface IdempotencyKeysTable {
  org_id: string;
  mode: Mode;
  key: string;
  /** SHA-256 of method, path and canonical JSON body. */
  fingerprint: string;
  /** The request that holds the claim, then the one whose response is stored. */
  request_id: string;
  /** When the claim was taken; a claim older than the lock timeout was abandoned (its process died). */
  locked_at: string;
  /** Null while the first request runs. */
  response_status: number | null;
  response_body: string | null;
  created_at: string;
}

export interface Tables {
  idempotency_keys: IdempotencyKeysTable;
  orgs: OrgsTable;
  api_keys: ApiKeysTable;
  accounts: AccountsTable;
}
