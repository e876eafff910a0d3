import { type Kysely, sql } from 'kysely';

/**
 * Metadata (docs/api.md#metadata-your-own-references): the index that answers `metadata[key]=value` filters (one row
 * per key of an object), and the metadata of webhook endpoints (the fintech module adds its own objects' columns).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('metadata_entries')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('object_tx', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('metadata_entries_pk', ['object_id', 'key'])
    .execute();
  await db.schema
    .createIndex('metadata_entries_lookup_idx')
    .on('metadata_entries')
    .columns(['org_id', 'mode', 'kind', 'key', 'value', 'object_tx', 'object_id'])
    .execute();
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').dropColumn('metadata').execute();
  await db.schema.dropTable('metadata_entries').execute();
}
