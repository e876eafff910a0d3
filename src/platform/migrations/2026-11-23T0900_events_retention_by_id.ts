import type { Kysely } from 'kysely';

// The retention purge finds old events by their time-sortable id (events.repository.ts), so the index on created_at
// goes: it was one more index entry, and one more page written per commit, for every event of every write.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_created_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('events_created_idx').on('events').column('created_at').execute();
}
