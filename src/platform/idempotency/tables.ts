import type { Mode } from '../auth/principal.ts';

export interface IdempotencyKeysTable {
  org_id: string;
  mode: Mode;
  /** The API key that sent it: the scope is that key's (docs/api.md#safe-retries-idempotency-key). */
  api_key_id: string;
  key: string;
  /** SHA-256 of method, path and canonical JSON body. */
  fingerprint: string;
  /** The request whose response is stored: a replay answers with its Request-Id. */
  request_id: string;
  /** The stored answer, written in the same transaction as whatever the request wrote. */
  response_status: number;
  response_body: string;
  created_at: string;
}

declare module '../../db/tables.ts' {
  interface Tables {
    idempotency_keys: IdempotencyKeysTable;
  }
}
