import type { Db } from '../../db/database.ts';
import { runWrite } from '../../db/write.ts';
import { ApiError } from '../http/errors.ts';
import { type ListParams, listPage, type Page } from '../http/pagination.ts';
import { isIdOf, newId } from '../kit/ids.ts';
import { cleanText, cleanTextRule } from '../kit/text.ts';
import { type Clock, storedTime } from '../kit/time.ts';
import * as repo from './api-keys.repository.ts';
import type { ApiKey, NewApiKey } from './api-keys.schema.ts';
import { apiKeyFromRow, newApiKeyFromRow } from './api-keys.view.ts';
import { generateKey, hashKey, keyHint, parseKey } from './key-format.ts';
import type { Mode, Principal } from './principal.ts';
import type { ApiKeysTable } from './tables.ts';

export interface KeysDeps {
  db: Db;
  clock: Clock;
}

export interface CreatedKey {
  row: ApiKeysTable;
  /** The secret; shown once, at creation, and never stored. */
  key: string;
}

/** Creates a key for the named org, creating the org first if it does not exist (operator CLI). */
export function createKeyForOrgName(deps: KeysDeps, orgName: string, mode: Mode): Promise<CreatedKey> {
  return runWrite(deps.db, async (trx) => {
    let org = await repo.findOrgByName(trx, orgName);
    if (org === undefined) {
      org = { id: newId('org'), name: orgName, display_name: null, created_at: storedTime(deps.clock()) };
      await repo.insertOrg(trx, org);
    }
    return insertNewKey(trx, deps.clock, org.id, mode);
  });
}

async function insertNewKey(
  trx: Parameters<typeof repo.insertKey>[0],
  clock: Clock,
  orgId: string,
  mode: Mode,
): Promise<CreatedKey> {
  const key = generateKey(mode);
  const row: ApiKeysTable = {
    id: newId('key'),
    org_id: orgId,
    mode,
    secret_hash: hashKey(key),
    hint: keyHint(key),
    created_at: storedTime(clock()),
    revoked_at: null,
  };
  await repo.insertKey(trx, row);
  return { row, key };
}

/** Self-serve sandbox (CONTRACT §7): a new org, named by its id, and its first sandbox key. */
export function signUp(
  deps: KeysDeps,
  displayName: string | undefined,
): Promise<{ org_id: string; api_key: NewApiKey }> {
  const name = displayName === undefined ? undefined : cleanText(displayName, 100);
  if (name === null) {
    throw new ApiError('parameter_invalid', cleanTextRule('name', 100), { param: 'name' });
  }
  return runWrite(deps.db, async (trx) => {
    const id = newId('org');
    await repo.insertOrg(trx, { id, name: id, display_name: name ?? null, created_at: storedTime(deps.clock()) });
    const { row, key } = await insertNewKey(trx, deps.clock, id, 'sandbox');
    return { org_id: id, api_key: newApiKeyFromRow(row, key) };
  });
}

/** A new key for the caller's org; a sandbox key may not mint a live one. */
export function createKeyForPrincipal(deps: KeysDeps, owner: Principal, mode: Mode = owner.mode): Promise<NewApiKey> {
  if (owner.mode === 'sandbox' && mode === 'live') {
    throw new ApiError('permission_denied', 'A sandbox key cannot create a live key; use a live key.', {
      param: 'mode',
    });
  }
  return runWrite(deps.db, async (trx) => {
    const { row, key } = await insertNewKey(trx, deps.clock, owner.orgId, mode);
    return newApiKeyFromRow(row, key);
  });
}

export function listKeysForPrincipal(
  deps: KeysDeps,
  owner: Principal,
  params: ListParams,
): Promise<Page<ApiKeysTable>> {
  return listPage(
    params,
    async (id) => isIdOf('key', id) && (await repo.findKeyOfOwner(deps.db, owner, id)) !== undefined,
    (take, cursor) => repo.pageKeys(deps.db, owner, take, cursor),
  );
}

/** Revokes one of the caller's keys (its org, its mode); harmless when already revoked. */
export async function revokeKeyForPrincipal(deps: KeysDeps, owner: Principal, id: string): Promise<ApiKey> {
  const row = isIdOf('key', id) ? await repo.findKeyOfOwner(deps.db, owner, id) : undefined;
  if (row === undefined)
    throw new ApiError('resource_not_found', `No such API key: ${id.slice(0, 64)}`, { param: 'id' });
  return runWrite(deps.db, async (trx) => {
    await repo.revokeKey(trx, row.id, storedTime(deps.clock()));
    return apiKeyFromRow((await repo.findKeyById(trx, row.id))!);
  });
}

export async function listKeysForOrgName(deps: KeysDeps, orgName: string): Promise<ApiKeysTable[] | null> {
  const org = await repo.findOrgByName(deps.db, orgName);
  return org === undefined ? null : repo.listKeysOfOrg(deps.db, org.id);
}

/** Revokes a key by id; harmless when already revoked. Null when no such key exists. */
export async function revokeKeyById(deps: KeysDeps, keyId: string): Promise<ApiKeysTable | null> {
  return runWrite(deps.db, async (trx) => {
    await repo.revokeKey(trx, keyId, storedTime(deps.clock()));
    return (await repo.findKeyById(trx, keyId)) ?? null;
  });
}

/**
 * The principal for a presented key, or null for anything unusable (malformed, bad checksum, unknown, revoked).
 * Format and checksum are checked first, so garbage never reaches the database. No cache: every request sees
 * a revocation committed by any process at once.
 */
export async function authenticate(deps: KeysDeps, presented: string): Promise<Principal | null> {
  const mode = parseKey(presented);
  if (mode === null) return null;
  const row = await repo.findKeyByHash(deps.db, hashKey(presented));
  if (row === undefined || row.revoked_at !== null || row.mode !== mode) return null;
  return { orgId: row.org_id, mode: row.mode, keyId: row.id };
}
