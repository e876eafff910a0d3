import { parsePermissions } from '../../platform/auth/permissions.ts';
import type { ApiKeysTable } from '../../platform/auth/tables.ts';
import { apiTime } from '../../platform/kit/time.ts';
import type { ApiKey, NewApiKey } from './api-keys.schema.ts';

/** The public view of a key: never its secret, nor its hash. */
export function apiKeyFromRow(row: ApiKeysTable): ApiKey {
  return {
    id: row.id,
    object: 'api_key',
    mode: row.mode,
    hint: row.hint,
    name: row.name,
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
    revoked_at: row.revoked_at === null ? null : apiTime(row.revoked_at),
    last_used_at: row.last_used_at === null ? null : apiTime(row.last_used_at),
    permissions: parsePermissions(row.permissions),
  };
}

/** A key as shown once, at creation: the public view and the secret. */
export function newApiKeyFromRow(row: ApiKeysTable, key: string): NewApiKey {
  return { ...apiKeyFromRow(row), key };
}
