import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Money that waits (docs/api.md#holding-money-pending-transfers-and-the-two-balances) and metadata
 * (docs/api.md#metadata-your-own-references). A ledger account keeps `held`, what its pending outgoing transfers
 * reserve, written in the same transaction as the transfer; the database refuses a held amount below 0 and an available
 * balance (balance − held) below 0 for a customer, as it refuses a negative balance. Transfers gain their pending state
 * (existing ones were posted at once: posted_amount = amount) and metadata; accounts gain metadata.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`alter table ledger_accounts add column held bigint not null default 0`.execute(db);
    await sql`alter table ledger_accounts add constraint ledger_accounts_held_valid
      check (held >= 0 and (kind = 'system' or balance - held >= 0))`.execute(db);
  } else {
    // SQLite adds a CHECK only with the column; one that names another column is allowed there.
    await sql`alter table ledger_accounts add column held bigint not null default 0
      constraint ledger_accounts_held_valid check (held >= 0 and (kind = 'system' or balance - held >= 0))`.execute(db);
  }
  if (postgres) {
    // A pending transfer has no journal until it posts: its id can no longer reference one (ledger verify checks
    // that every posted transfer has its journal instead).
    await sql`alter table transfers drop constraint transfers_id_fkey`.execute(db);
    await sql`alter table transfers add column pending integer not null default 0, add column posted_amount bigint,
      add column expires_at text, add column resolved_at text, add column metadata text not null default '{}'`.execute(
      db,
    );
  } else {
    await rebuildSqliteTransfers(db);
  }
  await sql`update transfers set posted_amount = amount where status = 'posted'`.execute(db);
  // The expiry sweep's look-up: only pending transfers, by when they expire.
  await sql`create index transfers_pending_expiry_idx on transfers (expires_at) where status = 'pending'`.execute(db);
  await db.schema
    .alterTable('accounts')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
  await guardTransfers(db, postgres);
}

/**
 * SQLite cannot drop a foreign key: the table is made again without it (the steps of SQLite's "making other kinds of
 * table schema changes"), with the new columns, its rows copied, its indexes made again; the triggers follow below.
 */
async function rebuildSqliteTransfers(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`create table transfers_new (
      id text primary key not null,
      org_id text not null references orgs(id),
      mode text not null,
      from_account_id text not null references accounts(id),
      to_account_id text not null references accounts(id),
      amount bigint not null check (amount between 1 and ${Number.MAX_SAFE_INTEGER}),
      currency text not null,
      description text,
      status text not null,
      created_at text not null,
      tx integer not null default 0,
      pending integer not null default 0,
      posted_amount bigint,
      expires_at text,
      resolved_at text,
      metadata text not null default '{}',
      constraint transfers_distinct_sides check (from_account_id <> to_account_id))`)
    .execute(db);
  await sql`insert into transfers_new (id, org_id, mode, from_account_id, to_account_id, amount, currency,
      description, status, created_at, tx)
    select id, org_id, mode, from_account_id, to_account_id, amount, currency, description, status, created_at, tx
    from transfers`.execute(db);
  await sql`drop table transfers`.execute(db);
  await sql`alter table transfers_new rename to transfers`.execute(db);
  await sql`create index transfers_org_mode_id_idx on transfers (org_id, mode, id)`.execute(db);
  await sql`create index transfers_from_idx on transfers (from_account_id, id)`.execute(db);
  await sql`create index transfers_to_idx on transfers (to_account_id, id)`.execute(db);
  await sql`create trigger transfers_no_delete before delete on transfers
    begin select raise(abort, 'transfers is append-only'); end`.execute(db);
}

// What a change to a transfer may not do: touch what it moves, or leave `pending` other than once, to an end.
const FORBIDDEN = `new.id is distinct from old.id or new.org_id is distinct from old.org_id
  or new.mode is distinct from old.mode or new.from_account_id is distinct from old.from_account_id
  or new.to_account_id is distinct from old.to_account_id or new.amount is distinct from old.amount
  or new.currency is distinct from old.currency or new.description is distinct from old.description
  or new.pending is distinct from old.pending
  or (new.expires_at is distinct from old.expires_at and not (old.status = 'pending' and new.status = 'expired'))
  or new.created_at is distinct from old.created_at
  or (new.status is distinct from old.status
      and (old.status <> 'pending' or new.status not in ('posted', 'voided', 'expired')))
  or (new.status is not distinct from old.status and (new.posted_amount is distinct from old.posted_amount
      or new.resolved_at is distinct from old.resolved_at))`;

/**
 * Transfers were append-only; now a pending one leaves `pending` once (posted, voided or expired, with its posted
 * amount and time), and any transfer's metadata may change. Nothing else of a transfer ever changes, and none is
 * deleted: the database refuses it.
 */
async function guardTransfers(db: Kysely<unknown>, postgres: boolean): Promise<void> {
  if (postgres) {
    await sql`drop trigger transfers_append_only on transfers`.execute(db);
    await sql
      .raw(`create function transfers_guard() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' or (${FORBIDDEN}) then
          raise exception 'a transfer changes only from pending to an end, and in its metadata' using errcode = 'P0001';
        end if;
        return new;
      end $$`)
      .execute(db);
    await sql`create trigger transfers_guard before update or delete on transfers
      for each row execute function transfers_guard()`.execute(db);
    return;
  }
  await sql
    .raw(`create trigger transfers_guard before update on transfers when ${FORBIDDEN.replaceAll('is distinct from', 'is not').replaceAll('is not distinct from', 'is')}
      begin select raise(abort, 'a transfer changes only from pending to an end, and in its metadata'); end`)
    .execute(db);
}

/** Undone but for one thing: a transfer's id referencing its journal does not come back (pending ones have none). */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger transfers_guard on transfers`.execute(db);
    await sql`drop function transfers_guard()`.execute(db);
    await sql`create trigger transfers_append_only before update or delete on transfers
      for each row execute function plinth_append_only()`.execute(db);
  } else {
    await sql`drop trigger transfers_guard`.execute(db);
    await sql`create trigger transfers_no_update before update on transfers
      begin select raise(abort, 'transfers is append-only'); end`.execute(db);
  }
  await db.schema.alterTable('accounts').dropColumn('metadata').execute();
  await sql`drop index transfers_pending_expiry_idx`.execute(db);
  for (const column of ['metadata', 'resolved_at', 'expires_at', 'posted_amount', 'pending'])
    await db.schema.alterTable('transfers').dropColumn(column).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql`alter table ledger_accounts drop constraint ledger_accounts_held_valid`.execute(db);
  await db.schema.alterTable('ledger_accounts').dropColumn('held').execute();
}
