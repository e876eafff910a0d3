import type { Selectable, SelectQueryBuilder } from 'kysely';
import { listHorizon, listsInCommitOrder } from './commit-order.ts';
import type { Db } from './database.ts';
import { type Cursor, pageOf } from './keyset.ts';
import { prepared } from './prepared.ts';
import type { Tables } from './tables.ts';

/** Whose rows: an organisation and a mode (a principal fits). Every API read is scoped by one. */
export interface Owner {
  orgId: string;
  mode: string;
}

/** The tables whose rows belong to an owner: an `id`, an `org_id` and a `mode`. */
export type OwnedTable = {
  [T in keyof Tables]: Tables[T] extends { id: string; org_id: string; mode: string } ? T : never;
}[keyof Tables];

type Row<T extends OwnedTable> = Selectable<Tables[T]>;
// biome-ignore lint/suspicious/noExplicitAny: Kysely cannot follow a column through a generic table name
type Loose = SelectQueryBuilder<any, any, any>;

const byId = new Map<OwnedTable, (db: Db, values: { id: string; org_id: string; mode: string }) => Promise<unknown>>();

/** The owner's row of `table` with this id, or undefined: another owner's row is as if it never existed. */
export async function findOwned<T extends OwnedTable>(
  db: Db,
  table: T,
  owner: Owner,
  id: string,
): Promise<Row<T> | undefined> {
  let find = byId.get(table);
  if (find === undefined) {
    // Compiled once per table: a retrieve runs it on every request.
    find = prepared<{ id: string; org_id: string; mode: string }, unknown>(
      { id: true, org_id: true, mode: true },
      (k, p) =>
        (k.selectFrom(table).selectAll() as Loose)
          .where('id', '=', p.id)
          .where('org_id', '=', p.org_id)
          .where('mode', '=', p.mode),
    );
    byId.set(table, find);
  }
  const { rows } = (await find(db, { id, org_id: owner.orgId, mode: owner.mode })) as { rows: Row<T>[] };
  return rows[0];
}

/**
 * One keyset page (see `pageOf`) of the owner's rows of `table`, newest first; `narrow` adds a list's own filters
 * (a status, an account) to the owner's scope.
 */
export async function pageOwned<T extends OwnedTable>(
  db: Db,
  table: T,
  owner: Owner,
  take: number,
  cursor: Cursor | undefined,
  narrow: (query: Loose) => Loose = (query) => query,
): Promise<Row<T>[]> {
  const scoped = (db.selectFrom(table).selectAll() as Loose)
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode);
  const order = { table, horizon: listsInCommitOrder(db) ? await listHorizon(db) : undefined };
  return pageOf(narrow(scoped), order, take, cursor).execute() as Promise<Row<T>[]>;
}
