import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { addCommitOrder } from '../../../db/commit-order.ts';

// 2^53 − 1, as every amount.
const MAX = '9007199254740991';
const SOURCES = `'transfer', 'sandbox_deposit', 'sandbox_withdrawal', 'transfer_reversal'`;

/**
 * Reversals, balances at a past moment, statements and nicknames (docs/api.md#correcting-a-transfer,
 * docs/api.md#balances-over-time-and-statements):
 *
 * - `transfer_reversals`, and each transfer's `amount_reversed`, which the database keeps between 0 and what was
 *   posted (a CHECK: concurrent reversals can never sum above it); a journal may now be a reversal's.
 * - `ledger_accounts.last_entry_at`: the time of the account's last entry. A movement's time is never earlier
 *   (ledger/time.ts), so an account's entries are in time order as they are in ledger order, and "the balance at
 *   `at`" is the last entry at or before it, read from an index (`ledger_entries_account_time_idx`).
 * - An index of pending transfers by sender and time, for what was held at a past moment.
 * - `accounts.nickname`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`alter table ledger_journals drop constraint ledger_journals_source_type_check`.execute(db);
    await sql
      .raw(`alter table ledger_journals add constraint ledger_journals_source_type_check
        check (source_type in (${SOURCES}))`)
      .execute(db);
    await sql
      .raw(`alter table transfers add column amount_reversed bigint not null default 0,
      add constraint transfers_reversed_bounded check (amount_reversed >= 0
        and amount_reversed <= coalesce(posted_amount, 0))`)
      .execute(db);
  } else {
    await rebuildSqliteJournals(db);
    // SQLite adds a CHECK only with the column; one that names another column is allowed there.
    await sql`alter table transfers add column amount_reversed bigint not null default 0
      constraint transfers_reversed_bounded check (amount_reversed >= 0
        and amount_reversed <= coalesce(posted_amount, 0))`.execute(db);
  }
  await allowReversedInGuard(db, postgres);
  await db.schema.alterTable('ledger_accounts').addColumn('last_entry_at', 'text').execute();
  await sql`update ledger_accounts set last_entry_at =
    (select max(created_at) from ledger_entries e where e.account_id = ledger_accounts.id)`.execute(db);
  await db.schema
    .createIndex('ledger_entries_account_time_idx')
    .on('ledger_entries')
    .columns(['account_id', 'created_at', 'account_seq'])
    .execute();
  await sql`create index transfers_holds_idx on transfers (from_account_id, created_at) where pending = 1`.execute(db);
  await db.schema.alterTable('accounts').addColumn('nickname', 'text').execute();
  await db.schema
    .createTable('transfer_reversals')
    .addColumn('id', 'text', (c) => c.primaryKey().references('ledger_journals.id'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('transfer_id', 'text', (c) => c.notNull().references('transfers.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql.raw(`amount between 1 and ${MAX}`)))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('transfer_reversals_transfer_idx')
    .on('transfer_reversals')
    .columns(['transfer_id', 'id'])
    .execute();
  await addCommitOrder(db, 'transfer_reversals', [
    { name: 'transfer_reversals_transfer_tx_idx', columns: ['transfer_id', 'tx', 'id'] },
  ]);
  await appendOnly(db, 'transfer_reversals', postgres);
}

/**
 * SQLite cannot change a CHECK in place, and cannot drop a table others reference while foreign keys are on (they are
 * on, and cannot be switched off inside the migration's transaction). So both tables are made again, the referencing
 * one too: new journals, new entries referencing them, rows copied, the old entries dropped before the old journals,
 * and the new tables renamed (a rename rewrites the references to the renamed table). Then indexes and triggers.
 */
async function rebuildSqliteJournals(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`create table ledger_journals_new ("id" text primary key, "org_id" text not null references "orgs" ("id"),
      "mode" text not null, "currency" text not null,
      "source_type" text not null check (source_type in (${SOURCES})),
      "description" text, "created_at" text not null)`)
    .execute(db);
  await sql`insert into ledger_journals_new (id, org_id, mode, currency, source_type, description, created_at)
    select id, org_id, mode, currency, source_type, description, created_at from ledger_journals`.execute(db);
  await sql
    .raw(`create table ledger_entries_new ("id" text primary key,
      "journal_id" text not null references "ledger_journals_new" ("id"),
      "account_id" text not null references "ledger_accounts" ("id"), "amount" bigint not null,
      "balance_after" bigint not null, "account_seq" bigint not null, "created_at" text not null,
      constraint "ledger_entries_amount" check (amount <> 0 and amount between -${MAX} and ${MAX}),
      constraint "ledger_entries_account_seq" unique ("account_id", "account_seq"))`)
    .execute(db);
  await sql`insert into ledger_entries_new (id, journal_id, account_id, amount, balance_after, account_seq, created_at)
    select id, journal_id, account_id, amount, balance_after, account_seq, created_at from ledger_entries`.execute(db);
  await sql`drop table ledger_entries`.execute(db);
  await sql`drop table ledger_journals`.execute(db);
  await sql`alter table ledger_journals_new rename to ledger_journals`.execute(db);
  await sql`alter table ledger_entries_new rename to ledger_entries`.execute(db);
  await sql`create index "ledger_entries_journal_idx" on "ledger_entries" ("journal_id")`.execute(db);
  for (const table of ['ledger_journals', 'ledger_entries']) await appendOnly(db, table, false);
}

/** As the ledger's own tables: no update, no delete (the ledger migration's triggers, for one more table). */
async function appendOnly(db: Kysely<unknown>, table: string, postgres: boolean): Promise<void> {
  if (postgres) {
    await sql
      .raw(`create trigger ${table}_append_only before update or delete on ${table}
        for each row execute function plinth_append_only()`)
      .execute(db);
    return;
  }
  for (const op of ['update', 'delete'])
    await sql
      .raw(`create trigger ${table}_no_${op} before ${op} on ${table}
        begin select raise(abort, '${table} is append-only'); end`)
      .execute(db);
}

// What a change to a transfer may not do (the pending-transfers migration's rule), now allowing `amount_reversed`
// to grow on a posted transfer; the CHECK bounds it by what was posted.
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
      or new.resolved_at is distinct from old.resolved_at))
  or new.amount_reversed < old.amount_reversed
  or (new.amount_reversed <> old.amount_reversed and old.status <> 'posted')`;

async function allowReversedInGuard(db: Kysely<unknown>, postgres: boolean): Promise<void> {
  const message = 'a transfer changes only from pending to an end, in its metadata, and by reversals';
  if (postgres) {
    await sql
      .raw(`create or replace function transfers_guard() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' or (${FORBIDDEN}) then
          raise exception '${message}' using errcode = 'P0001';
        end if;
        return new;
      end $$`)
      .execute(db);
    return;
  }
  await sql`drop trigger transfers_guard`.execute(db);
  const when = FORBIDDEN.replaceAll('is distinct from', 'is not').replaceAll('is not distinct from', 'is');
  await sql
    .raw(`create trigger transfers_guard before update on transfers when ${when}
      begin select raise(abort, '${message}'); end`)
    .execute(db);
}

/** Reversals and nicknames go; journals keep the wider CHECK (a narrower one could refuse rows written since). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transfer_reversals').execute();
  await db.schema.alterTable('accounts').dropColumn('nickname').execute();
  await sql`drop index transfers_holds_idx`.execute(db);
  await sql`drop index ledger_entries_account_time_idx`.execute(db);
  await db.schema.alterTable('ledger_accounts').dropColumn('last_entry_at').execute();
}
