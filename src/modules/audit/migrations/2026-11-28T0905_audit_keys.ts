import type { Kysely } from 'kysely';

/**
 * The instance's checkpoint keys (docs/api.md#verifying-the-history): Ed25519, the private half sealed under
 * SECRETS_KEY. One is active (`active` = 1; the unique index lets two processes starting at once make only one);
 * a rotated key stays, retired, so that checkpoints it signed can still be checked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('retired_at', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_keys').execute();
}
