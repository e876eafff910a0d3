import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { addCommitOrder } from '../../../db/commit-order.ts';

// 2^53 − 1, as every amount.
const MAX = '9007199254740991';

/**
 * Money in and out (docs/api.md#bank-account-numbers-and-payments):
 *
 * - A transfer's sides may be system accounts now: a payment out is a pending transfer from the account to its org's
 *   clearing account for the rail, money in a transfer from that clearing account. The sides' foreign keys name
 *   `ledger_accounts` (every customer account has its ledger row, under the same id) instead of `accounts`.
 *   `transfers.payment_id` marks a payment's transfer, which only the payment moves.
 * - `account_numbers`, `external_accounts` (their numbers sealed, their last four digits apart), `payments` (with the
 *   one step each has due, which the sandbox clock runs: `due_at`, `due_action`), and the sandbox's `payment_rules`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`alter table transfers
      drop constraint transfers_from_account_id_fkey,
      drop constraint transfers_to_account_id_fkey,
      add constraint transfers_from_account_id_fkey foreign key (from_account_id) references ledger_accounts (id),
      add constraint transfers_to_account_id_fkey foreign key (to_account_id) references ledger_accounts (id)`.execute(
      db,
    );
  } else await rebuildSqliteTransfers(db);
  await db.schema.alterTable('transfers').addColumn('payment_id', 'text').execute();
  // A payment's hold has no expiry: what it held at a past moment is read by its end, not within the 30-day window.
  await sql`create index transfers_payment_holds_idx on transfers (from_account_id, resolved_at)
    where payment_id is not null`.execute(db);

  await db.schema
    .createTable('account_numbers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('routing_number', 'text', (c) => c.notNull())
    // Sealed (platform/secrets, context `account_numbers.account_number`); what is shown is `last4`.
    .addColumn('account_number', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'disabled')`))
    .addColumn('inbound_debits', 'text', (c) => c.notNull().check(sql`inbound_debits in ('allowed', 'blocked')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_numbers_org_idx')
    .on('account_numbers')
    .columns(['org_id', 'mode', 'id'])
    .execute();
  await db.schema
    .createIndex('account_numbers_account_idx')
    .on('account_numbers')
    .columns(['account_id', 'id'])
    .execute();
  // An inbound payment (and a bank file) finds its number by routing number and last four digits, then opens each.
  await db.schema
    .createIndex('account_numbers_lookup_idx')
    .on('account_numbers')
    .columns(['routing_number', 'last4'])
    .execute();
  await addCommitOrder(db, 'account_numbers', [
    { name: 'account_numbers_org_tx_idx', columns: ['org_id', 'mode', 'tx', 'id'] },
  ]);

  await db.schema
    .createTable('external_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('routing_number', 'text', (c) => c.notNull())
    .addColumn('account_number', 'text', (c) => c.notNull())
    .addColumn('account_number_last4', 'text', (c) => c.notNull())
    .addColumn('account_holder_name', 'text', (c) => c.notNull())
    .addColumn('account_type', 'text', (c) => c.notNull().check(sql`account_type in ('checking', 'savings')`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('external_accounts_org_idx')
    .on('external_accounts')
    .columns(['org_id', 'mode', 'id'])
    .execute();
  await addCommitOrder(db, 'external_accounts', [
    { name: 'external_accounts_org_tx_idx', columns: ['org_id', 'mode', 'tx', 'id'] },
  ]);

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull().check(sql`direction in ('outbound', 'inbound')`))
    .addColumn('rail', 'text', (c) => c.notNull().check(sql`rail in ('ach', 'wire', 'rtp')`))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('external_account_id', 'text', (c) => c.references('external_accounts.id'))
    .addColumn('account_number_id', 'text', (c) => c.references('account_numbers.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql.raw(`amount between 1 and ${MAX}`)))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(sql`status in ('pending_submission', 'submitted', 'settled', 'returned', 'rejected', 'canceled')`),
    )
    .addColumn('return_code', 'text')
    .addColumn('transfer_id', 'text', (c) => c.references('transfers.id'))
    .addColumn('originator_name', 'text')
    .addColumn('description', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('submitted_at', 'text')
    .addColumn('settled_at', 'text')
    .addColumn('returned_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // The one step due next, and when (sandbox): `submit`, `settle`, or `return` with `due_return_code`.
    .addColumn('due_at', 'text')
    .addColumn('due_action', 'text', (c) => c.check(sql`due_action in ('submit', 'settle', 'return')`))
    .addColumn('due_return_code', 'text')
    .execute();
  await db.schema.createIndex('payments_org_idx').on('payments').columns(['org_id', 'mode', 'id']).execute();
  await db.schema.createIndex('payments_account_idx').on('payments').columns(['account_id', 'id']).execute();
  await sql`create index payments_due_idx on payments (org_id, mode, due_at) where due_at is not null`.execute(db);
  // The clock's background pass asks which orgs have a step due by now: only the due rows are read.
  await sql`create index payments_due_time_idx on payments (due_at, org_id) where due_at is not null`.execute(db);
  await addCommitOrder(db, 'payments', [{ name: 'payments_org_tx_idx', columns: ['org_id', 'mode', 'tx', 'id'] }]);

  await db.schema
    .createTable('payment_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('match_amount', 'bigint')
    .addColumn('match_rail', 'text')
    // Sealed, as an external account's number; `match_last4` is what is shown.
    .addColumn('match_account_number', 'text')
    .addColumn('match_last4', 'text')
    .addColumn('return_code', 'text')
    .addColumn('return_at', 'text')
    .addColumn('reject', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_rules_org_idx').on('payment_rules').columns(['org_id', 'mode', 'id']).execute();
}

/**
 * SQLite cannot change a foreign key in place. With the check of foreign keys deferred to the commit, the transfers are
 * copied aside, the table dropped (its reversals' references wait for the commit), made again with the new references
 * and filled back, which satisfies them again; then its indexes and triggers, as they were.
 */
async function rebuildSqliteTransfers(db: Kysely<unknown>): Promise<void> {
  await sql`pragma defer_foreign_keys = on`.execute(db);
  const schema = await sql<{ type: string; sql: string | null }>`select type, sql from sqlite_schema
    where tbl_name = 'transfers' and type in ('table', 'index', 'trigger') and sql is not null`.execute(db);
  const table = schema.rows.find((row) => row.type === 'table')!.sql!;
  const rebuilt = table.replaceAll('references accounts(id)', 'references ledger_accounts(id)');
  if (rebuilt.split('references ledger_accounts(id)').length !== 3)
    throw new Error('transfers: the two references to accounts(id) were not found');
  await sql`create table transfers_copy as select * from transfers`.execute(db);
  await sql`drop table transfers`.execute(db);
  await sql.raw(rebuilt).execute(db);
  await sql`insert into transfers select * from transfers_copy`.execute(db);
  await sql`drop table transfers_copy`.execute(db);
  for (const row of schema.rows) if (row.type !== 'table') await sql.raw(row.sql!).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['payment_rules', 'payments', 'external_accounts', 'account_numbers'])
    await db.schema.dropTable(table).execute();
  await db.schema.alterTable('transfers').dropColumn('payment_id').execute();
}
