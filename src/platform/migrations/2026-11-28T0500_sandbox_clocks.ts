import { type Kysely, sql } from 'kysely';

// Each org's sandbox clock (docs/api.md#the-sandbox-clock): real time plus an offset that only grows, one row per org
// whose clock was advanced or has work due, read by every server process.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_clocks')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('orgs.id'))
    .addColumn('offset_ms', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`offset_ms >= 0`))
    // The time an advance asked for, in milliseconds since the epoch, until the clock reaches it: what is due up to
    // it runs after the advance's write commits, and after a crash the clock's background pass finishes it.
    .addColumn('target_ms', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_clocks').execute();
}
