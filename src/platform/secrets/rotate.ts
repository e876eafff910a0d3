import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from './box.ts';

/** A column holding sealed values; its context (`table.column`) is what each value is bound to. */
export interface SealedColumn {
  table: string;
  column: string;
}

export const contextOf = (c: SealedColumn) => `${c.table}.${c.column}`;

/**
 * Re-seals every value of `columns` that is plain text or sealed under another key than the current one, in
 * batches of `batch` rows, each its own transaction. Returns how many values were re-sealed per column.
 */
export async function resealAll(database: Database, box: SecretBox, columns: SealedColumn[], batch = 500) {
  const counts: Record<string, number> = {};
  for (const c of columns) {
    counts[contextOf(c)] = 0;
    let after = '';
    for (;;) {
      const rows = await sql<{ id: string; value: string }>`select id, ${sql.ref(c.column)} as value
        from ${sql.table(c.table)} where id > ${after} and ${sql.ref(c.column)} is not null
        order by id limit ${batch}`.execute(database.db);
      if (rows.rows.length === 0) break;
      after = rows.rows.at(-1)!.id;
      const stale = rows.rows.filter((r) => box.needsResealing(r.value));
      await database.write(async (trx) => {
        for (const r of stale) {
          const value = box.seal(box.open(r.value, contextOf(c)), contextOf(c));
          await sql`update ${sql.table(c.table)} set ${sql.ref(c.column)} = ${value}
            where id = ${r.id} and ${sql.ref(c.column)} = ${r.value}`.execute(trx);
        }
      });
      counts[contextOf(c)]! += stale.length;
    }
  }
  return counts;
}
