import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Bank statements in (docs/deploy.md, "Statements in"): each imported day (`bank_statements`, one per date), each of
 * its lines once under the bank's reference (`bank_statement_lines`, with the rule that matched it and what it made),
 * both append-only as the ledger's tables; and the lines no rule matched (`bank_exceptions`), open until resolved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('bank_statements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('statement_date', 'text', (c) => c.notNull().unique())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('opening', 'bigint', (c) => c.notNull())
    .addColumn('closing', 'bigint', (c) => c.notNull())
    .addColumn('line_count', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('bank_statement_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('statement_date', 'text', (c) => c.notNull())
    .addColumn('booking_date', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull().check(sql`direction in ('credit', 'debit')`))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('account_number_last4', 'text')
    .addColumn('trace_number', 'text')
    .addColumn('return_code', 'text')
    .addColumn('counterparty', 'text')
    .addColumn('description', 'text')
    .addColumn('rule', 'text', (c) => c.notNull().check(sql`rule in ('account_number', 'trace_number', 'exception')`))
    .addColumn('org_id', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('payment_status', 'text')
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bank_statement_lines_date_idx')
    .on('bank_statement_lines')
    .columns(['statement_date', 'id'])
    .execute();
  await db.schema
    .createTable('bank_exceptions')
    .addColumn('line_id', 'text', (c) => c.primaryKey().references('bank_statement_lines.id'))
    .addColumn('statement_date', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open', 'resolved', 'ignored')`))
    .addColumn('account_id', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('note', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  for (const table of ['bank_statements', 'bank_statement_lines']) await appendOnly(db, table, postgres);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bank_exceptions').execute();
  await db.schema.dropTable('bank_statement_lines').execute();
  await db.schema.dropTable('bank_statements').execute();
}

/** As the ledger's own tables: no update, no delete (the ledger migration's `plinth_append_only` on PostgreSQL). */
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
