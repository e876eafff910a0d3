import { type Kysely, sql } from 'kysely';

// Append-only: a released migration is never edited; a change is a new file with a later timestamp.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('orgs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sqlIn('mode', ['sandbox', 'live'])))
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_org_idx').on('api_keys').columns(['org_id', 'id']).execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sqlIn('mode', ['sandbox', 'live'])))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('available_balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('kyb_legal_name', 'text')
    .addColumn('kyb_ein', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Every list is one org's objects of one mode, newest first; ids are time-sortable, so this serves the keyset.
  await db.schema.createIndex('accounts_org_mode_id_idx').on('accounts').columns(['org_id', 'mode', 'id']).execute();
}

function sqlIn(column: string, values: string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('accounts').execute();
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('orgs').execute();
}
