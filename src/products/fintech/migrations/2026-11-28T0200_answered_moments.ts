import type { Kysely } from 'kysely';

/**
 * `ledger_accounts.sealed_before`: a moment about which a balance or a statement of the account has been answered. No
 * later movement of the account takes an earlier time (ledger/time.ts), so an answer about the past never changes
 * (docs/api.md#balances-over-time-and-statements). Null until the first such answer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ledger_accounts').addColumn('sealed_before', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ledger_accounts').dropColumn('sealed_before').execute();
}
