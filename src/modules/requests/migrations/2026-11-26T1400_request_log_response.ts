import type { Kysely } from 'kysely';

// The request log keeps the answer too (docs/api.md, "The request log"): its JSON body, redacted and cut at 8 KiB as
// the request's is, and for an error the problem's `detail` and `param`. Older entries have none (null, not cut).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('request_logs').addColumn('response_body', 'text').execute();
  await db.schema
    .alterTable('request_logs')
    .addColumn('response_truncated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('request_logs').addColumn('error_detail', 'text').execute();
  await db.schema.alterTable('request_logs').addColumn('error_param', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['error_param', 'error_detail', 'response_truncated', 'response_body'])
    await db.schema.alterTable('request_logs').dropColumn(column).execute();
}
