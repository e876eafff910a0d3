import { type Kysely, SqliteAdapter, sql } from 'kysely';

/**
 * Each event keeps the id of the request that caused it in a column of its own (its body's `request.id`), indexed
 * by owner, so that the dashboard's page of a request finds its events by an index lookup, not by searching bodies.
 * Events written before this migration get theirs from their body: the append-only rule is lifted for that one
 * update, inside this migration's transaction, and the column joins the fields a sequencer pass may not change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('request_id', 'text').execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`drop trigger events_append_only`.execute(db);
    await sql`update events set request_id = json_extract(body, '$.request.id')`.execute(db);
    await sql`create trigger events_append_only before update on events
      begin select raise(abort, 'events are append-only'); end`.execute(db);
  } else {
    await sql`alter table events disable trigger events_append_only`.execute(db);
    await sql`update events set request_id = body::jsonb -> 'request' ->> 'id'`.execute(db);
    await sql`alter table events enable trigger events_append_only`.execute(db);
    await appendOnlyExcept(db, 'and new.request_id is not distinct from old.request_id');
  }
  await db.schema.createIndex('events_request_idx').on('events').columns(['org_id', 'mode', 'request_id']).execute();
}

/** PostgreSQL's rule (2026-11-24T1300): numbered once, and `also` besides. */
async function appendOnlyExcept(db: Kysely<unknown>, also: string): Promise<void> {
  await sql`create or replace function events_append_only() returns trigger language plpgsql as $$
    begin
      if old.sequence is null and new.sequence is not null and new.id = old.id and new.org_id = old.org_id
        and new.mode = old.mode and new.type = old.type and new.created_at = old.created_at
        and new.position is not distinct from old.position
        and new.position_index is not distinct from old.position_index ${sql.raw(also)} then
        return new;
      end if;
      raise exception 'events are append-only (numbered once, then never changed)';
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_request_idx').execute();
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) await appendOnlyExcept(db, '');
  await db.schema.alterTable('events').dropColumn('request_id').execute();
}
