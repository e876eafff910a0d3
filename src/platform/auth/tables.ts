import type { Mode } from './principal.ts';

/** Times are ISO 8601 UTC text with milliseconds, on both backends. */
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
  /** A label for people; null when none was given. */
  name: string | null;
  created_at: string;
  revoked_at: string | null;
  /** Written in batches by keys/usage.ts: may lag by up to a minute. */
  last_used_at: string | null;
  /** A restricted key's permissions as JSON, every group listed (permissions.ts); null for a full key. */
  permissions: string | null;
}

declare module '../../db/tables.ts' {
  interface Tables {
    orgs: OrgsTable;
    api_keys: ApiKeysTable;
  }
}
