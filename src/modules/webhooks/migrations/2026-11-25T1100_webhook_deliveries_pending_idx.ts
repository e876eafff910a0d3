import { type Kysely, sql } from 'kysely';

// The fair claim (webhooks/claims.repository.ts) walks the endpoints that have pending deliveries, one index step
// each, and takes an endpoint's oldest due ones: an index of pending rows by mode, endpoint and due time. The
// "anything due?" index becomes pending-only too (it held every delivery ever made): with both indexes partial, the
// SQLite planner no longer takes the old one for an endpoint's due rows, which scanned every endpoint's.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_pending_idx')
    .on('webhook_deliveries')
    .columns(['mode', 'endpoint_id', 'next_attempt_at'])
    .where(sql.ref('status'), '=', sql.lit('pending'))
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_pending_due_idx')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('status'), '=', sql.lit('pending'))
    .execute();
  await db.schema.dropIndex('webhook_deliveries_due_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.dropIndex('webhook_deliveries_pending_due_idx').execute();
  await db.schema.dropIndex('webhook_deliveries_pending_idx').execute();
}
