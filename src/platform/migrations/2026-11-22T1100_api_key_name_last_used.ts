import type { Kysely } from 'kysely';

// Keys get a label for people (`name`) and when they were last used (`last_used_at`, written in batches, so it may
// lag by up to a minute). The index serves the per-org, per-mode count of active keys (API_KEYS_PER_ORG and the
// last-active-key rule).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute();
  await db.schema
    .createIndex('api_keys_org_mode_active_idx')
    .on('api_keys')
    .columns(['org_id', 'mode', 'revoked_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('api_keys_org_mode_active_idx').execute();
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
  await db.schema.alterTable('api_keys').dropColumn('name').execute();
}
