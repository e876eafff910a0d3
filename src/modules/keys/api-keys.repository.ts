import type { Db, Trx } from '../../db/database.ts';
import type { Mode } from '../../platform/auth/principal.ts';
import type { ApiKeysTable, OrgsTable } from '../../platform/auth/tables.ts';

export { findKeyByHash, findKeyById } from '../../platform/auth/credentials.repository.ts';

export function findOrgByName(db: Db, name: string): Promise<OrgsTable | undefined> {
  return db.selectFrom('orgs').selectAll().where('name', '=', name).executeTakeFirst();
}

export function findOrgById(db: Db, id: string): Promise<OrgsTable | undefined> {
  return db.selectFrom('orgs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Display names are not unique and not indexed: for the operator CLI only. */
export function findOrgsByDisplayName(db: Db, displayName: string, limit: number): Promise<OrgsTable[]> {
  return db.selectFrom('orgs').selectAll().where('display_name', '=', displayName).orderBy('id').limit(limit).execute();
}

export async function insertOrg(trx: Trx, row: OrgsTable): Promise<void> {
  await trx.insertInto('orgs').values(row).execute();
}

export async function insertKey(trx: Trx, row: ApiKeysTable): Promise<void> {
  await trx.insertInto('api_keys').values(row).execute();
}

export function listKeysOfOrg(db: Db, orgId: string): Promise<ApiKeysTable[]> {
  return db.selectFrom('api_keys').selectAll().where('org_id', '=', orgId).orderBy('id', 'desc').execute();
}

/** Sets revoked_at once; a second revocation keeps the first time. True when this call revoked it. */
export async function revokeKey(trx: Trx, id: string, at: string): Promise<boolean> {
  const result = await trx
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Active (unrevoked) keys of one org and mode. */
export async function countActiveKeys(db: Db, orgId: string, mode: Mode): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('org_id', '=', orgId)
    .where('mode', '=', mode)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Serialises the writes that count an org's active keys (the key limit, the last active key): on PostgreSQL a
 * row lock on the org, held to the end of the transaction, so that two concurrent revocations cannot each see
 * the other's key still active. SQLite has one writer at a time anyway. A lock, not a no-op update: the refusals
 * that follow it must come before the request's first write (see runOrRefuse in idempotency.ts).
 */
export async function lockOrg(trx: Trx, orgId: string): Promise<void> {
  await trx.selectFrom('orgs').select('id').where('id', '=', orgId).forUpdate().execute();
}
