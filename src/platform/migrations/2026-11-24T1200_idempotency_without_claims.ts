import { type Kysely, sql } from 'kysely';

/**
 * Idempotency records hold only completed responses (the write pipeline stores the response in the same transaction
 * as the work, and PostgreSQL's transaction lock replaced claim rows). Claim rows left by versions before that, with
 * no response, are as good as absent: deleted. `locked_at`, written and never read since, goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from idempotency_keys where response_status is null or response_body is null`.execute(db);
  await db.schema.alterTable('idempotency_keys').dropColumn('locked_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('idempotency_keys')
    .addColumn('locked_at', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update idempotency_keys set locked_at = created_at`.execute(db);
}
