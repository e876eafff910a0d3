import type { Transaction } from 'kysely';
import type { Db } from './database.ts';
import type { Tables } from './tables.ts';

export type Trx = Transaction<Tables>;

/**
 * Every write of every use case goes through here: one transaction, committed before the caller answers.
 * It is the one place to change when concurrent requests' writes are batched into one group commit.
 */
export function runWrite<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(work);
}
