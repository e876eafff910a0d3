import { PostgresAdapter } from 'kysely';
import type { Trx } from './database.ts';

/**
 * Row locks are PostgreSQL's: there several transactions run at once, so a write locks the rows it reads before
 * deciding. SQLite runs one write transaction at a time (savepoints of one group commit), so its reads inside the
 * transaction already see every earlier write, and `for update` is not even its syntax.
 */
export function locksRows(trx: Trx): boolean {
  return trx.getExecutor().adapter instanceof PostgresAdapter;
}
