import type { Db, Trx } from '../../db/database.ts';
import { type Cursor, pageOf } from '../../db/keyset.ts';
import type { Mode } from './principal.ts';
import type { ApiKeysTable, OrgsTable } from './tables.ts';

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

/** A key visible to the owner: its org and its mode. */
export function findKeyOfOwner(
  db: Executor,
  owner: { orgId: string; mode: Mode },
  id: string,
): Promise<ApiKeysTable | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
}

/** One keyset page of the owner's keys (see pageOf). */
export function pageKeys(
  db: Executor,
  owner: { orgId: string; mode: Mode },
  take: number,
  cursor: Cursor | undefined,
): Promise<ApiKeysTable[]> {
  return pageOf(
    db.selectFrom('api_keys').selectAll().where('org_id', '=', owner.orgId).where('mode', '=', owner.mode),
    take,
    cursor,
  ).execute();
}

export function listKeysOfOrg(db: Executor, orgId: string): Promise<ApiKeysTable[]> {
  return db.selectFrom('api_keys').selectAll().where('org_id', '=', orgId).orderBy('id', 'desc').execute();
}

/** Sets revoked_at once; a second revocation keeps the first time. True when this call revoked it. */
export async function revokeKey(db: Executor, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
