import type { SelectQueryBuilder } from 'kysely';

export interface Cursor {
  id: string;
  /** True when walking towards older ids (starting_after), false towards newer (ending_before). */
  older: boolean;
}

/**
 * Restricts a query to one keyset page: ids are time-sortable and unique, so `id` alone is a total order and a
 * page boundary can never skip or repeat a row. Rows come in the order of travel.
 */
// biome-ignore lint/suspicious/noExplicitAny: any table with an `id` column
export function pageOf<QB extends SelectQueryBuilder<any, any, any>>(
  query: QB,
  take: number,
  cursor: Cursor | undefined,
): QB {
  if (cursor === undefined || cursor.older) {
    const q = cursor ? query.where('id', '<', cursor.id) : query;
    return q.orderBy('id', 'desc').limit(take) as QB;
  }
  return query.where('id', '>', cursor.id).orderBy('id', 'asc').limit(take) as QB;
}
