import type { Kysely } from 'kysely';

// Dashboard sessions (docs/dashboard.md#sessions): the session id's hash, the key it acts for, its org and mode, its
// expiry. The purge walks them oldest first.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_sessions_created_idx').on('dashboard_sessions').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dashboard_sessions').execute();
}
