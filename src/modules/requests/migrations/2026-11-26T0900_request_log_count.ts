import type { Kysely } from 'kysely';

// A request log entry may stand for many requests: those one key sent in one second that its rate limit refused
// (docs/api.md, "The request log"). `count` is how many; null for an entry of one request.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('request_logs').addColumn('count', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('request_logs').dropColumn('count').execute();
}
