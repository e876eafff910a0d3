import type { Kysely } from 'kysely';

/**
 * The NACHA files `bank ach-export` wrote (docs/deploy.md, "Live money: the bank files"): one row per file, made in
 * the same write that marks its payments submitted; the payments name it in `ach_file_id`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ach_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('entry_count', 'integer', (c) => c.notNull())
    .addColumn('debit_total', 'bigint', (c) => c.notNull())
    .addColumn('credit_total', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ach_files').execute();
}
