import { type SelectQueryBuilder, sql } from 'kysely';

export interface Cursor {
  id: string;
  /** True when walking towards older ids (starting_after), false towards newer (ending_before). */
  older: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: any table with an `id` (and, on PostgreSQL, a `tx`) column
type AnySelect = SelectQueryBuilder<any, any, any>;

/**
 * Restricts a query of `table` to one keyset page, newest first; rows come in the order of travel.
 *
 * SQLite: ids are time-sortable and unique and its single writer commits them in order, so `id` alone is the order
 * and a page boundary can never skip or repeat a row. PostgreSQL: rows commit out of id order, so the order is
 * `(tx, id)`, the inserting transaction first, and only rows below the horizon are shown (see
 * db/commit-order.ts): nothing can appear later behind a cursor.
 */
export function pageOf<QB extends AnySelect>(
  query: QB,
  /**
   * `horizon`: PostgreSQL's (commit-order.ts' `listHorizon`); absent on SQLite, which lists by id, or by `(tx, id)`
   * with `byTx` (a table whose rows are written after their ids were minted, with `tx` numbering its writes).
   */
  order: { table: string; horizon?: bigint; byTx?: boolean },
  take: number,
  cursor: Cursor | undefined,
): QB {
  const { table } = order;
  if (order.horizon === undefined && order.byTx !== true) {
    if (cursor === undefined || cursor.older) {
      const q = cursor ? query.where('id', '<', cursor.id) : query;
      return q.orderBy('id', 'desc').limit(take) as QB;
    }
    return query.where('id', '>', cursor.id).orderBy('id', 'asc').limit(take) as QB;
  }
  const ref = sql.ref(table);
  let q: AnySelect = query;
  if (order.horizon !== undefined) q = q.where(sql<boolean>`${ref}.tx < ${String(order.horizon)}::bigint`);
  const direction = cursor === undefined || cursor.older ? 'desc' : 'asc';
  if (cursor !== undefined) {
    const at = sql`(select c.tx, c.id from ${sql.table(table)} as c where c.id = ${cursor.id})`;
    q = q.where(sql<boolean>`(${ref}.tx, ${ref}.id) ${sql.raw(cursor.older ? '<' : '>')} ${at}`);
  }
  return q.orderBy(sql`${ref}.tx`, direction).orderBy(sql`${ref}.id`, direction).limit(take) as QB;
}
