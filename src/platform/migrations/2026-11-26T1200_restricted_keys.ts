import type { Kysely } from 'kysely';

/**
 * Restricted keys (docs/api.md#restricted-keys): a key's permissions, as JSON with every group listed; null for a full
 * key, as every key made before this was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('permissions', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('permissions').execute();
}
