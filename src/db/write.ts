import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from 'kysely';
import type { Db } from './database.ts';
import type { Tables } from './tables.ts';

export type Trx = Transaction<Tables>;

/**
 * Work that must commit together with whatever the current request writes: the idempotency mechanism stores
 * the response here, in the same transaction as the resource it describes. Set per request by the platform.
 */
export type BeforeCommit = (trx: Trx, result: unknown) => Promise<void>;
export const beforeCommit = new AsyncLocalStorage<BeforeCommit>();

/**
 * Every write of every use case goes through here: one transaction, committed before the caller answers.
 * `work` returns the use case's API result, so that anything riding on the commit (see beforeCommit) sees it.
 * It is the one place to change when concurrent requests' writes are batched into one group commit.
 */
export function runWrite<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  const hook = beforeCommit.getStore();
  return db.transaction().execute(async (trx) => {
    const result = await work(trx);
    if (hook) await hook(trx, result);
    return result;
  });
}
