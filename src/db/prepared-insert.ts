import type { Trx } from './database.ts';
import { type Names, preparedSend } from './prepared.ts';
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
 * row count (see `prepared`). Same columns as `preparedInsert`; any number of rows, one statement per 32.
 */
export function preparedInsertRows<T extends keyof Tables & string>(
  table: T,
  columns: Names<Tables[T]>,
): (trx: Trx, rows: Tables[T][]) => void {
  const names = Object.keys(columns);
  const byCount = new Map<number, (trx: Trx, values: Record<string, unknown>) => void>();
  const forCount = (count: number) => {
    let insert = byCount.get(count);
    if (insert === undefined) {
      const params = Object.fromEntries(
        Array.from({ length: count }, (_, i) => names.map((name) => [`${name}.${i}`, true])).flat(),
      );
      insert = preparedSend<Record<string, unknown>>(params, (db, p) =>
        db
          .insertInto(table)
          .values(
            Array.from({ length: count }, (_, i) =>
              Object.fromEntries(names.map((name) => [name, p[`${name}.${i}`]])),
            ) as never,
          ),
      );
      byCount.set(count, insert);
    }
    return insert;
  };
  return (db, rows) => {
    for (let start = 0; start < rows.length; start += MAX_ROWS_PER_INSERT) {
      const chunk = rows.slice(start, start + MAX_ROWS_PER_INSERT);
      const values: Record<string, unknown> = {};
      chunk.forEach((row, i) => {
        for (const name of names) values[`${name}.${i}`] = (row as unknown as Record<string, unknown>)[name];
      });
      forCount(chunk.length)(db, values);
    }
  };
}
