import { type Kysely, sql } from 'kysely';

/**
 * Each ledger account carries whether it may move money: its account's status (`active`, `frozen`, `closed`), written
 * together with `accounts.status` in the same transaction (accounts.repository.ts `updateStatus`); system accounts
 * are always `active`. A transfer's balance updates then guard on it themselves (ledger/post.ts), so the common case,
 * a transfer that is allowed, needs no read before it writes. `ledger verify` checks that the two copies agree.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('ledger_accounts')
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('active').check(sql`status in ('active', 'frozen', 'closed')`),
    )
    .execute();
  await sql`update ledger_accounts set status = (select a.status from accounts a where a.id = ledger_accounts.id)
    where kind = 'customer'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ledger_accounts').dropColumn('status').execute();
}
