import type { ApiKeysTable } from '../db/tables.ts';
import { apiTime } from './time.ts';

/** The public view of a key: never its secret, nor its hash. */
export interface ApiKeyView {
  id: string;
  object: 'api_key';
  org_id: string;
  mode: 'sandbox' | 'live';
  hint: string;
  livemode: boolean;
  created_at: string;
  revoked_at: string | null;
}

export function apiKeyFromRow(row: ApiKeysTable): ApiKeyView {
  return {
    id: row.id,
    object: 'api_key',
    org_id: row.org_id,
    mode: row.mode,
    hint: row.hint,
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
    revoked_at: row.revoked_at === null ? null : apiTime(row.revoked_at),
  };
}
