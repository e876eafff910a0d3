import type { Kysely } from 'kysely';

/**
 * A live ACH payment's place in the bank files (docs/deploy.md, "Live money: the bank files"): the NACHA file that
 * submitted it and its trace number there, by which the bank's settlement and return lines name it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('ach_file_id', 'text').execute();
  await db.schema.alterTable('payments').addColumn('trace_number', 'text').execute();
  await db.schema.createIndex('payments_trace_idx').on('payments').columns(['trace_number']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_trace_idx').execute();
  await db.schema.alterTable('payments').dropColumn('trace_number').execute();
  await db.schema.alterTable('payments').dropColumn('ach_file_id').execute();
}
