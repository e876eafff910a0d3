import type { Trx } from './database.ts';
import { fieldsInto } from './fields.ts';
import { type Names, preparedSend, preparedSendInOrder } from './prepared.ts';
import type { Tables } from './tables.ts';

/** `insert into <table>` of every column of its row type, compiled once (see `prepared`). */
export function preparedInsert<T extends keyof Tables & string>(
  table: T,
  columns: Names<Tables[T]>,
): (trx: Trx, row: Tables[T]) => void {
  return preparedSend<Tables[T]>(columns, (db, p) => db.insertInto(table).values(p as never));
}

/** Row counts a multi-row insert is compiled for; more rows than this go in several statements. */
const MAX_ROWS_PER_INSERT = 32;

/**
 * `insert into <table>` of several rows in one statement (a transfer's entries, a write's events), compiled once per
 * row count (see `prepared`). Same columns as `preparedInsert`; any number of rows, one statement per 32. The values
 * are bound by position, row by row (`preparedSendInOrder`): naming each one (`amount.3`) and looking it up again
 * cost more than the insert's own SQLite work for a transfer's entries.
 */
export function preparedInsertRows<T extends keyof Tables & string>(
  table: T,
  columns: Names<Tables[T]>,
): (trx: Trx, rows: Tables[T][]) => void {
  const names = Object.keys(columns);
  const width = names.length;
  const into = fieldsInto(names, true);
  const byCount: ((trx: Trx, values: unknown[]) => void)[] = [];
  const forCount = (count: number) => {
    let insert = byCount[count];
    if (insert === undefined) {
      const params = Array.from({ length: count }, (_, i) => names.map((name) => `${name}.${i}`)).flat();
      insert = preparedSendInOrder(params, (db, p) =>
        db
          .insertInto(table)
          .values(
            Array.from({ length: count }, (_, i) =>
              Object.fromEntries(names.map((name) => [name, p[`${name}.${i}`]])),
            ) as never,
          ),
      );
      byCount[count] = insert;
    }
    return insert;
  };
  return (db, rows) => {
    for (let start = 0; start < rows.length; start += MAX_ROWS_PER_INSERT) {
      const end = Math.min(rows.length, start + MAX_ROWS_PER_INSERT);
      const values = new Array<unknown>((end - start) * width);
      let at = 0;
      for (let r = start; r < end; r++) at = into(rows[r]!, values, at, r - start);
      forCount(end - start)(db, values);
    }
  };
}
