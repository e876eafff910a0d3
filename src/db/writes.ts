import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Trx } from './database.ts';
import { directConnection } from './node-sqlite.ts';
import { pgWriteOf } from './postgres.ts';

const totalChanges = new WeakMap<DatabaseSync, StatementSync>();

/**
 * A count that grows whenever the write changes rows: compare it before and after a step to know whether the step
 * wrote. PostgreSQL: the statements issued that change rows; SQLite: `total_changes()` of the writer connection.
 */
export function writeCount(trx: Trx): number {
  const write = pgWriteOf(trx);
  if (write !== undefined) return write.writes;
  const native = directConnection(trx);
  if (native === undefined) throw new Error('writeCount: not a write transaction');
  let statement = totalChanges.get(native);
  if (statement === undefined) {
    statement = native.prepare('select total_changes() as n');
    totalChanges.set(native, statement);
  }
  return Number((statement.get() as { n: number }).n);
}
