import type { Db } from '../../db/database.ts';
import { hashKey } from '../../platform/auth/key-format.ts';
import type { KeyPermissions } from '../../platform/auth/permissions.ts';
import type { Mode } from '../../platform/auth/principal.ts';
import type { ApiKeysTable, OrgsTable } from '../../platform/auth/tables.ts';
import { isIdOf, newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import * as repo from './api-keys.repository.ts';
import { type CreatedKey, insertNewKey, type KeysDeps, revokeAndEmit } from './api-keys.service.ts';

/** What the operator CLI does with keys: orgs named by id or handle, keys by id or by the secret itself. */

/** The org an operator names: by its id (`org_…`) or by its handle (`orgs.name`; a sign-up's handle is its id). */
function findOrg(db: Db, ref: string): Promise<OrgsTable | undefined> {
  return isIdOf('org', ref) ? repo.findOrgById(db, ref) : repo.findOrgByName(db, ref);
}

/**
 * What the operator CLI's `--org` names: the org of that id or handle, else the orgs whose sign-up display name it
 * is (not unique, so all of them, at most `limit`), for the CLI to use or to point at.
 */
export async function findOrgForOperator(
  deps: Pick<KeysDeps, 'db'>,
  ref: string,
  limit = 5,
): Promise<{ org: OrgsTable | undefined; signedUpAs: OrgsTable[] }> {
  const org = await findOrg(deps.db, ref);
  return { org, signedUpAs: org === undefined ? await repo.findOrgsByDisplayName(deps.db, ref, limit) : [] };
}

/**
 * Creates a key for the org of that id or handle, creating an org with that handle first if none exists (operator
 * CLI). Null for an org id that names no org: an org is never created under a handle shaped like an id.
 */
export function createKeyForOrgName(
  deps: KeysDeps,
  orgRef: string,
  mode: Mode,
  permissions: KeyPermissions | null = null,
  name: string | null = null,
): Promise<CreatedKey | null> {
  return deps.write(async (trx) => {
    let org = await findOrg(trx, orgRef);
    if (org === undefined) {
      if (isIdOf('org', orgRef)) return null;
      const now = deps.clock();
      org = { id: newId('org', now.getTime()), name: orgRef, display_name: null, created_at: storedTime(now) };
      await repo.insertOrg(trx, org);
    }
    const ctx = { trx, owner: { orgId: org.id, mode }, request: null, now: deps.clock() };
    return insertNewKey(deps, ctx, name, permissions);
  });
}

export function listKeysOfOrg(deps: KeysDeps, orgId: string): Promise<ApiKeysTable[]> {
  return repo.listKeysOfOrg(deps.db, orgId);
}

/** The key itself, given where its id was expected (operator CLI): found by its hash, as authentication does. */
export function findKeyBySecret(deps: KeysDeps, key: string): Promise<ApiKeysTable | undefined> {
  return repo.findKeyByHash(deps.db, hashKey(key));
}

/** Revokes a key by id; harmless when already revoked. Null when no such key exists. */
export async function revokeKeyById(deps: KeysDeps, keyId: string): Promise<ApiKeysTable | null> {
  return deps.write(async (trx) => {
    if ((await repo.findKeyById(trx, keyId)) === undefined) return null;
    await revokeAndEmit(deps, { trx, request: null, now: deps.clock() }, keyId);
    return (await repo.findKeyById(trx, keyId)) ?? null;
  });
}
