import { type Kysely, SqliteAdapter, sql } from 'kysely';

// The outbox (events), its per-org-and-mode counter, webhook endpoints and their durable deliveries.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_sequences')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('last_sequence', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_sequences_pk', ['org_id', 'mode'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('sequence', 'bigint', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('events_sequence_unique', ['org_id', 'mode', 'sequence'])
    .execute();
  await db.schema
    .createIndex('events_org_type_idx')
    .on('events')
    .columns(['org_id', 'mode', 'type', 'sequence'])
    .execute();
  await db.schema.createIndex('events_created_idx').on('events').column('created_at').execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('enabled_events', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_expires_at', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_org_idx')
    .on('webhook_endpoints')
    .columns(['org_id', 'mode', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'text', (c) => c.notNull())
    .addColumn('scheduled_attempts', 'integer', (c) => c.notNull())
    .addColumn('manual', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('claim', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The workers' claim: pending rows by due time.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'id'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_event_idx').on('webhook_deliveries').columns(['event_id']).execute();
  await appendOnly(db);
}

/** An event never changes once written (docs/api.md#events); only the retention purge deletes it. */
async function appendOnly(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`create trigger events_append_only before update on events
      begin select raise(abort, 'events are append-only'); end`.execute(db);
    return;
  }
  await sql`create function events_append_only() returns trigger language plpgsql as $$
    begin raise exception 'events are append-only'; end $$`.execute(db);
  await sql`create trigger events_append_only before update on events
    for each row execute function events_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_deliveries', 'webhook_endpoints', 'events', 'event_sequences']) {
    await db.schema.dropTable(table).execute();
  }
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) await sql`drop function events_append_only()`.execute(db);
}
