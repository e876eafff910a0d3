import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Tables } from './tables.ts';

/**
 * Lists that never skip a row on PostgreSQL (docs/api.md#pagination: "pages never skip or repeat an object, even while
 * objects are being created"). Ids are minted before a write waits for its locks and its commit, so rows commit out of
 * id order, and a page already read cannot show a row that commits later with a smaller id. On PostgreSQL every listed
 * row therefore carries `tx`, the id of the transaction that inserted it (`pg_current_xact_id()`, by default), and
 * lists order by `(tx, id)` and show only rows whose `tx` is below a horizon (`listHorizon`): every transaction below
 * it has ended, so no row can appear later behind a cursor. A row is retrievable by id at once, and listed once every
 * write older than its own has ended (milliseconds); a list first waits for that (`listHorizon`), so it shows every row
 * committed before it was asked for. SQLite's single writer commits in id order: `tx` is 0 there, and its lists order
 * by id alone (db/keyset.ts).
 */
export async function addCommitOrder(
  db: Kysely<unknown>,
  table: string,
  indexes: { name: string; columns: string[]; replaces?: string }[],
): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await db.schema
      .alterTable(table)
      .addColumn('tx', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    return;
  }
  await sql`alter table ${sql.table(table)} add column tx bigint not null
    default (pg_current_xact_id()::text::bigint)`.execute(db);
  for (const index of indexes) {
    await db.schema.createIndex(index.name).on(table).columns(index.columns).execute();
    if (index.replaces !== undefined) await db.schema.dropIndex(index.replaces).execute();
  }
}

/** Undoes `addCommitOrder`: the replaced indexes come back. */
export async function dropCommitOrder(
  db: Kysely<unknown>,
  table: string,
  indexes: { name: string; columns: string[]; replaces?: string; replacedColumns?: string[] }[],
): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const index of indexes) {
      await db.schema.dropIndex(index.name).execute();
      if (index.replaces !== undefined && index.replacedColumns !== undefined)
        await db.schema.createIndex(index.replaces).on(table).columns(index.replacedColumns).execute();
    }
  }
  await db.schema.alterTable(table).dropColumn('tx').execute();
}

/** Whether lists on this database order by commit (PostgreSQL) rather than by id (SQLite). */
export function listsInCommitOrder(db: { getExecutor(): { adapter: unknown } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const HORIZON_POLL_MS = 2;
const HORIZON_WAIT_MS = 1000;

/**
 * The oldest transaction of this database still running (as a 64-bit transaction id), or the next id to be given
 * when none is: every transaction below it has ended. Only this database's sessions can insert into its tables, so a
 * transaction elsewhere on the cluster (another database, another application) never holds a list back, as the
 * cluster-wide `pg_snapshot_xmin` would. `backend_xid` is 32 bits: widened with the epoch of the snapshot's xmax.
 */
const horizonNow = sql<{ horizon: string; xmax: string }>`
  with s as (select pg_snapshot_xmax(pg_current_snapshot())::text::bigint as xmax)
  select least(s.xmax, coalesce(min(
      ((s.xmax >> 32) << 32) + a.backend_xid::text::bigint
      - case when ((s.xmax >> 32) << 32) + a.backend_xid::text::bigint > s.xmax then 4294967296::bigint else 0 end
    ), s.xmax))::text as horizon, s.xmax::text as xmax
  from s left join pg_stat_activity as a on a.datname = current_database() and a.backend_xid is not null
  group by s.xmax`;

/**
 * PostgreSQL: the horizon a list shows rows below (see `pageOf`), once every transaction that had begun when it was
 * called has ended, so that the list shows every row committed before it (read your writes): at most
 * `HORIZON_WAIT_MS`, after which a long transaction of this database delays nothing more and its rows, and those after
 * it, wait for a later list (never a gap behind a cursor). Usually one round trip.
 */
export async function listHorizon(db: Kysely<Tables>): Promise<bigint> {
  const first = (await horizonNow.execute(db)).rows[0]!;
  const target = BigInt(first.xmax);
  let horizon = BigInt(first.horizon);
  const deadline = Date.now() + HORIZON_WAIT_MS;
  while (horizon < target && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, HORIZON_POLL_MS));
    horizon = BigInt((await horizonNow.execute(db)).rows[0]!.horizon);
  }
  return horizon;
}
