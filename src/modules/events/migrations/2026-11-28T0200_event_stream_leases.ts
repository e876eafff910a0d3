import type { Kysely } from 'kysely';

// The live event stream's limit per org and mode holds across every server process (docs/api.md#the-live-event-stream):
// one row per open stream, its lease renewed by the process that serves it, so a process that dies without closing
// its streams stops counting once their leases run out.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_stream_leases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('process_id', 'text', (c) => c.notNull())
    // Milliseconds since the epoch, by the clock of the process that holds the lease.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('event_stream_leases_owner_idx')
    .on('event_stream_leases')
    .columns(['org_id', 'mode'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_stream_leases').execute();
}
