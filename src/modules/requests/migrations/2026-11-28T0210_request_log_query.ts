import { type Kysely, sql } from 'kysely';

// The request log keeps the query string (docs/api.md, "The request log"), redacted as bodies are; older entries have
// none (null). Its list filters by a class of statuses (`status=4xx`): answered from an index on the class, in the
// list's order, as an exact status is from request_logs_org_status_tx_idx.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('request_logs').addColumn('query', 'text').execute();
  await sql`create index request_logs_org_status_class_tx_idx
    on request_logs (org_id, mode, (status / 100), tx, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('request_logs_org_status_class_tx_idx').execute();
  await db.schema.alterTable('request_logs').dropColumn('query').execute();
}
