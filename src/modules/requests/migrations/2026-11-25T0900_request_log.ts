import { type Kysely, PostgresAdapter, sql } from 'kysely';

// The request log (docs/api.md#the-request-log). No foreign key: a log row is written in batches after its request, and
// checking its org on every row would cost the batch a lookup per row for nothing the API relies on. `tx` orders the
// list (requests.repository.ts): on PostgreSQL the inserting transaction, as db/commit-order.ts describes; on SQLite
// the writer sets it, one increasing number per batch.
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('request_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('duration_us', 'integer', (c) => c.notNull())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('api_key_hint', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('replayed', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('body_truncated', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('tx', 'bigint', (c) =>
      postgres ? c.notNull().defaultTo(sql`(pg_current_xact_id()::text::bigint)`) : c.notNull().defaultTo(0),
    )
    .execute();
  await db.schema
    .createIndex('request_logs_org_tx_idx')
    .on('request_logs')
    .columns(['org_id', 'mode', 'tx', 'id'])
    .execute();
  await db.schema
    .createIndex('request_logs_org_status_tx_idx')
    .on('request_logs')
    .columns(['org_id', 'mode', 'status', 'tx', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('request_logs').execute();
}
