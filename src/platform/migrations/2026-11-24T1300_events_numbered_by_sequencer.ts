import { type Kysely, SqliteAdapter, sql } from 'kysely';

/**
 * PostgreSQL numbers events off the write path (platform/outbox/sequencer.ts): an event is written without a number,
 * with the ordering key of its write (`position`, from the sequence `event_order`, drawn as the write's last statement,
 * and `position_index` within the write), and numbered once by a sequencer pass. The append-only rule allows that one
 * change and nothing else. A partial index holds only the events waiting for their number.
 * SQLite numbers inline: its events keep a NOT NULL sequence and gain the two columns, always null there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('position', 'bigint').execute();
  await db.schema.alterTable('events').addColumn('position_index', 'integer').execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`create sequence event_order`.execute(db);
  await sql`alter table events alter column sequence drop not null`.execute(db);
  await sql`create index events_unnumbered_idx on events (position, position_index) where sequence is null`.execute(db);
  await sql`create or replace function events_append_only() returns trigger language plpgsql as $$
    begin
      if old.sequence is null and new.sequence is not null and new.id = old.id and new.org_id = old.org_id
        and new.mode = old.mode and new.type = old.type and new.created_at = old.created_at
        and new.position is not distinct from old.position
        and new.position_index is not distinct from old.position_index then
        return new;
      end if;
      raise exception 'events are append-only (numbered once, then never changed)';
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`delete from events where sequence is null`.execute(db);
    await sql`alter table events alter column sequence set not null`.execute(db);
    await sql`drop index events_unnumbered_idx`.execute(db);
    await sql`drop sequence event_order`.execute(db);
    await sql`create or replace function events_append_only() returns trigger language plpgsql as $$
      begin raise exception 'events are append-only'; end $$`.execute(db);
  }
  await db.schema.alterTable('events').dropColumn('position_index').execute();
  await db.schema.alterTable('events').dropColumn('position').execute();
}
