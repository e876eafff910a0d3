import { createHash } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The events' hash chain (docs/api.md#verifying-the-history): one row per numbered event, `(org, mode, sequence)` →
 * its id and the SHA-256 of its body, written in the transaction that gives the number, never changed or deleted
 * (the database refuses it), and kept when the event's body expires. Events numbered before this migration are
 * hashed as they are stored (their bodies name no previous hash: the chain is checked from the first body that does).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('event_chain')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('sequence', 'bigint', (c) => c.notNull().check(sql`sequence > 0`))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().check(sql`length(hash) = 64`))
    .addPrimaryKeyConstraint('event_chain_pkey', ['org_id', 'mode', 'sequence'])
    // SQLite: the rows kept in the key's own B-tree, one insert per event instead of a table's and its index's.
    .$call((table) => (postgres ? table : table.modifyEnd(sql`without rowid`)))
    .execute();
  const kept = db as unknown as Kysely<{
    events: { id: string; org_id: string; mode: string; sequence: number | string | null; body: string };
  }>;
  let after = { org: '', mode: '', sequence: 0 };
  for (;;) {
    const rows = await kept
      .selectFrom('events')
      .select(['id', 'org_id', 'mode', 'sequence', 'body'])
      .where('sequence', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('org_id', '>', after.org),
          eb.and([eb('org_id', '=', after.org), eb('mode', '>', after.mode)]),
          eb.and([eb('org_id', '=', after.org), eb('mode', '=', after.mode), eb('sequence', '>', after.sequence)]),
        ]),
      )
      .orderBy('org_id')
      .orderBy('mode')
      .orderBy('sequence')
      .limit(1000)
      .execute();
    if (rows.length === 0) break;
    await (db as Kysely<{ event_chain: object }>)
      .insertInto('event_chain')
      .values(
        rows.map((r) => ({
          org_id: r.org_id,
          mode: r.mode,
          sequence: Number(r.sequence),
          event_id: r.id,
          hash: createHash('sha256').update(r.body).digest('hex'),
        })),
      )
      .execute();
    const last = rows.at(-1)!;
    after = { org: last.org_id, mode: last.mode, sequence: Number(last.sequence) };
  }
  if (postgres) {
    await sql`create or replace function plinth_chain_append_only() returns trigger language plpgsql as $$
      begin raise exception '% is append-only', tg_table_name using errcode = 'P0001'; end $$`.execute(db);
    await sql`create trigger event_chain_append_only before update or delete on event_chain
      for each row execute function plinth_chain_append_only()`.execute(db);
    await sql`create trigger event_chain_no_truncate before truncate on event_chain
      for each statement execute function plinth_chain_append_only()`.execute(db);
    return;
  }
  for (const action of ['update', 'delete'])
    await sql
      .raw(`create trigger event_chain_no_${action} before ${action} on event_chain
        begin select raise(abort, 'event_chain is append-only'); end`)
      .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_chain').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql`drop function if exists plinth_chain_append_only()`.execute(db);
}
