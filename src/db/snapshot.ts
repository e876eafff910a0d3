import { type Kysely, PostgresAdapter, type Transaction } from 'kysely';
import type { Db } from './database.ts';
import type { Tables } from './tables.ts';

/**
 * Runs `work` on one consistent snapshot of the database, while writes go on: REPEATABLE READ on PostgreSQL; on
 * SQLite a read transaction is a snapshot already. For long reads that must agree with themselves (ledger verify).
 */
export function readSnapshot<T>(db: Db, work: (snapshot: Transaction<Tables>) => Promise<T>): Promise<T> {
  const postgres = (db as Kysely<Tables>).getExecutor().adapter instanceof PostgresAdapter;
  const transaction = postgres ? db.transaction().setIsolationLevel('repeatable read') : db.transaction();
  return transaction.execute(work);
}
