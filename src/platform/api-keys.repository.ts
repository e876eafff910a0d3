import type { Db } from '../db/database.ts';
import type { ApiKeysTable, OrgsTable } from '../db/tables.ts';
import type { Trx } from '../db/write.ts';

type Executor = Db | Trx;

export function findOrgByName(db: Executor, name: string): Promise<OrgsTable | undefined> {
  return db.selectFrom('orgs').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function insertOrg(db: Executor, row: OrgsTable): Promise<void> {
  await db.insertInto('orgs').values(row).execute();
}

export async function insertKey(db: Executor, row: ApiKeysTable): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export function findKeyByHash(db: Executor, secretHash: string): Promise<ApiKeysTable | undefined> {
  return db.selectFrom('api_keys').selectAll().where('secret_hash', '=', secretHash).executeTakeFirst();
}

export function findKeyById(db: Executor, id: string): Promise<ApiKeysTable | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listKeysOfOrg(db: Executor, orgId: string): Promise<ApiKeysTable[]> {
  return db.selectFrom('api_keys').selectAll().where('org_id', '=', orgId).orderBy('id', 'desc').execute();
}

/** Sets revoked_at once; a second revocation keeps the first time. */
export async function revokeKey(db: Executor, id: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}
