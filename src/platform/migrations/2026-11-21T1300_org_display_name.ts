import type { Kysely } from 'kysely';

// Sandbox sign-ups name their org freely, and names need not be unique: `name` stays the operator's unique
// handle (the CLI's --org), `display_name` is what a sign-up called itself.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orgs').addColumn('display_name', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orgs').dropColumn('display_name').execute();
}
