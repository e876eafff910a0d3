import type { Kysely } from 'kysely';

// One row per secrets key that has sealed anything here: a constant sealed under it. A start-up whose SECRETS_KEY
// opens none of them stops at once, instead of serving with secrets it cannot read (platform/secrets/key-check.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('secret_key_checks')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('check_value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('secret_key_checks').execute();
}
