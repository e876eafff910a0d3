import { type Kysely, PostgresAdapter, sql } from 'kysely';

// 2^53 − 1: the largest amount and the bound of every balance, so that every value stays exact as a JSON number.
const MAX = '9007199254740991';

/**
 * The money core (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations,
 * docs/api.md#account-lifecycle): ledger accounts holding balances (one per customer account, one system funding
 * account per org, mode and currency), journals, their entries, transfers; and the account lifecycle columns.
 * Append-only tables refuse UPDATE and DELETE by trigger; a CHECK refuses a negative customer balance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('customer', 'system')`))
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
    // How many entries the account has: the next entry's place in this account's ledger order.
    .addColumn('entry_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('ledger_accounts_customer_not_negative', sql`kind = 'system' or balance >= 0`)
    .addCheckConstraint('ledger_accounts_balance_bounded', sql.raw(`balance between -${MAX} and ${MAX}`))
    .execute();
  await db.schema
    .createTable('ledger_journals')
    .addColumn('id', 'text', (c) => c.primaryKey()) // the id of what caused it: tr_, sdep_ or swd_
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) =>
      c.notNull().check(sql`source_type in ('transfer', 'sandbox_deposit', 'sandbox_withdrawal')`),
    )
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'text', (c) => c.primaryKey()) // txn_: a customer account's entry is its transaction
    .addColumn('journal_id', 'text', (c) => c.notNull().references('ledger_journals.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('account_seq', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('ledger_entries_amount', sql.raw(`amount <> 0 and amount between -${MAX} and ${MAX}`))
    .addUniqueConstraint('ledger_entries_account_seq', ['account_id', 'account_seq'])
    .execute();
  await db.schema.createIndex('ledger_entries_journal_idx').on('ledger_entries').column('journal_id').execute();
  await db.schema
    .createTable('transfers')
    .addColumn('id', 'text', (c) => c.primaryKey().references('ledger_journals.id'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('from_account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('to_account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql.raw(`amount between 1 and ${MAX}`)))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('transfers_distinct_sides', sql`from_account_id <> to_account_id`)
    .execute();
  await db.schema.createIndex('transfers_org_mode_id_idx').on('transfers').columns(['org_id', 'mode', 'id']).execute();
  await db.schema.createIndex('transfers_from_idx').on('transfers').columns(['from_account_id', 'id']).execute();
  await db.schema.createIndex('transfers_to_idx').on('transfers').columns(['to_account_id', 'id']).execute();
  for (const table of ['ledger_journals', 'ledger_entries', 'transfers']) await appendOnly(db, table, postgres);
  await lifecycle(db);
}

/**
 * Status details, and the balance's move to ledger_accounts. No route could move money before this migration, so
 * every balance copied is 0; were one not, `ledger verify` would report it rather than the copy hiding it.
 */
async function lifecycle(db: Kysely<unknown>): Promise<void> {
  for (const column of ['status_reason', 'status_note', 'status_actor', 'closed_at'])
    await db.schema.alterTable('accounts').addColumn(column, 'text').execute();
  await sql`insert into ledger_accounts (id, org_id, mode, currency, kind, balance, entry_count, created_at)
    select id, org_id, mode, currency, 'customer', available_balance, 0, created_at from accounts`.execute(db);
  await db.schema.alterTable('accounts').dropColumn('available_balance').execute();
}

/** The database itself refuses to change or remove a row: a correction is a new journal, never an edit. */
async function appendOnly(db: Kysely<unknown>, table: string, postgres: boolean): Promise<void> {
  if (postgres) {
    await sql`create or replace function plinth_append_only() returns trigger language plpgsql as $$
      begin raise exception '% is append-only', tg_table_name using errcode = 'P0001'; end $$`.execute(db);
    await sql
      .raw(`create trigger ${table}_append_only before update or delete on ${table}
        for each row execute function plinth_append_only()`)
      .execute(db);
    await sql
      .raw(`create trigger ${table}_no_truncate before truncate on ${table}
        for each statement execute function plinth_append_only()`)
      .execute(db);
    return;
  }
  for (const action of ['update', 'delete'])
    await sql
      .raw(`create trigger ${table}_no_${action} before ${action} on ${table}
        begin select raise(abort, '${table} is append-only'); end`)
      .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('available_balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // Balances go back with the accounts; the ledger's history itself cannot survive a downgrade.
  await sql`update accounts set available_balance =
    (select balance from ledger_accounts where ledger_accounts.id = accounts.id)`.execute(db);
  for (const column of ['status_reason', 'status_note', 'status_actor', 'closed_at'])
    await db.schema.alterTable('accounts').dropColumn(column).execute();
  for (const table of ['transfers', 'ledger_entries', 'ledger_journals', 'ledger_accounts'])
    await db.schema.dropTable(table).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql`drop function if exists plinth_append_only()`.execute(db);
}
