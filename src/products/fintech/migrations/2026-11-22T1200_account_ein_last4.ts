import { type Kysely, sql } from 'kysely';

// The EIN is now sealed at rest (platform/secrets), so the last four digits the API shows get a column of their
// own: reading an account never needs the key. Rows from before keep their plain-text EIN, which still reads
// (a value not starting `enc:` is plain text) until `cli secrets rotate` seals it; their last four are copied now.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('kyb_ein_last4', 'text').execute();
  await sql`update accounts set kyb_ein_last4 = substr(kyb_ein, length(kyb_ein) - 3)
    where kyb_ein is not null and kyb_ein not like 'enc:%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('kyb_ein_last4').execute();
}
