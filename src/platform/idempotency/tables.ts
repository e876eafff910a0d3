import type { Mode } from '../keys/principal.ts';

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

declare module '../../db/tables.ts' {
  interface Tables {
    idempotency_keys: IdempotencyKeysTable;
  }
}
