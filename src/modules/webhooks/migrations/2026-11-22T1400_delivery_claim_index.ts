import { type Kysely, sql } from 'kysely';

// A delivery worker reads back the rows it just claimed by their claim token (one statement, compiled once, for any
// number of rows). Only claimed rows carry a token, so the index holds only the deliveries being attempted.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_claim_idx')
    .on('webhook_deliveries')
    .column('claim')
    .where(sql.ref('claim'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_claim_idx').execute();
}
