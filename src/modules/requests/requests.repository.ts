import { type SelectQueryBuilder, sql } from 'kysely';
import { deleteIdsBefore } from '../../db/batched-delete.ts';
import { listHorizon, listsInCommitOrder } from '../../db/commit-order.ts';
import type { Db, Trx } from '../../db/database.ts';
import { fieldsInto } from '../../db/fields.ts';
import { type Cursor, pageOf } from '../../db/keyset.ts';
import { findOwned, type Owner } from '../../db/owned.ts';
import { type Names, preparedSendInOrder } from '../../db/prepared.ts';
import { type CreatedRange, createdWithin } from '../../platform/http/created-filter.ts';
import { firstIdAt } from '../../platform/kit/ids.ts';
import type { RequestLogsTable } from './tables.ts';

const COLUMNS: Names<RequestLogsTable> = {
  id: true,
  org_id: true,
  mode: true,
  method: true,
  route: true,
  path: true,
  query: true,
  status: true,
  error_code: true,
  duration_us: true,
  api_key_id: true,
  api_key_hint: true,
  idempotency_key: true,
  replayed: true,
  source: true,
  body: true,
  body_truncated: true,
  response_body: true,
  response_truncated: true,
  error_detail: true,
  error_param: true,
  count: true,
  created_at: true,
};
const NAMES = Object.keys(COLUMNS) as (keyof RequestLogsTable)[];
// Each entry's columns as bound, in order, by one named load each (db/fields.ts), as they were pushed before.
const intoValues = fieldsInto(NAMES, false);

// A batch goes in as few statements as its size in binary has ones (250 rows: 128 + 64 + 32 + 16 + 8 + 2), each
// compiled once: eight statement shapes cover every batch, and none binds more than 128 × 24 parameters.
const SIZES = [128, 64, 32, 16, 8, 4, 2, 1];

type Insert = (trx: Trx, values: unknown[]) => void;
const inserts = new Map<string, Insert>();

/**
 * `insert into request_logs` of `count` rows; `withTx`: SQLite, where the writer numbers its batches in `tx`. Its
 * values are bound in order, row by row (`preparedSendInOrder`): a batch of 256 entries is 5,900 values, and looking
 * each up by name cost more than the entry itself.
 */
function insertOf(count: number, withTx: boolean): Insert {
  const name = `${count}:${withTx}`;
  let insert = inserts.get(name);
  if (insert === undefined) {
    const params: string[] = [];
    for (let i = 0; i < count; i++) {
      for (const column of NAMES) params.push(`${column}.${i}`);
      if (withTx) params.push(`tx.${i}`);
    }
    insert = preparedSendInOrder(params, (db, p) =>
      db.insertInto('request_logs').values(
        Array.from({ length: count }, (_, i) => {
          const row = Object.fromEntries(NAMES.map((column) => [column, p[`${column}.${i}`]]));
          return withTx ? { ...row, tx: p[`tx.${i}`] } : row;
        }) as never,
      ),
    );
    inserts.set(name, insert);
  }
  return insert;
}

/**
 * Writes a batch of entries, issued without waiting (on PostgreSQL pipelined with the COMMIT). `tx`: null on
 * PostgreSQL, where the column's default is the inserting transaction; on SQLite, the batch's number.
 */
export function insertRequestLogs(trx: Trx, rows: RequestLogsTable[], tx: number | null): void {
  let start = 0;
  const width = NAMES.length + (tx === null ? 0 : 1);
  for (const size of SIZES) {
    while (rows.length - start >= size) {
      const values = new Array<unknown>(size * width);
      let at = 0;
      for (let i = start; i < start + size; i++) {
        at = intoValues(rows[i]!, values, at, i);
        if (tx !== null) values[at++] = tx;
      }
      insertOf(size, tx !== null)(trx, values);
      start += size;
    }
  }
}

export function findRequestLog(db: Db, owner: Owner, id: string): Promise<RequestLogsTable | undefined> {
  return findOwned(db, 'request_logs', owner, id);
}

export interface RequestLogFilters {
  /** One status, or a class of them (4 for 400–499). */
  status?: { exact: number } | { class: number };
  method?: string;
  created: CreatedRange;
}

// biome-ignore lint/suspicious/noExplicitAny: the list query, whatever Kysely infers for it
type Loose = SelectQueryBuilder<any, any, any>;

/**
 * One keyset page of the owner's entries in the order they were written, newest first: by `(tx, id)` on both
 * backends. An entry is written after its request has been answered, so a slow request's entry lands after those of
 * requests that began later; ordered by id, it would appear behind a cursor already handed out. On PostgreSQL only
 * entries below the commit horizon are listed (db/commit-order.ts); SQLite's single writer commits batches in order.
 */
export async function pageRequestLogs(
  db: Db,
  owner: Owner,
  filters: RequestLogFilters,
  take: number,
  cursor: Cursor | undefined,
): Promise<RequestLogsTable[]> {
  let query = (db.selectFrom('request_logs').select(NAMES) as Loose)
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode);
  const status = filters.status;
  if (status !== undefined && 'exact' in status) query = query.where('status', '=', status.exact);
  // The expression of request_logs_org_status_class_tx_idx, written the same way: integer division on both backends.
  if (status !== undefined && 'class' in status) query = query.where(sql`status / 100`, '=', status.class);
  if (filters.method !== undefined) query = query.where('method', '=', filters.method);
  query = createdWithin(query, 'request_logs', 'req', filters.created);
  const horizon = listsInCommitOrder(db) ? await listHorizon(db) : undefined;
  return pageOf(query, { table: 'request_logs', horizon, byTx: true }, take, cursor).execute() as Promise<
    RequestLogsTable[]
  >;
}

/** Retention: deletes up to `batch` entries created before `cutoff`, oldest first, found by primary key. */
export function deleteRequestLogsBefore(trx: Trx, cutoff: string, batch: number): Promise<number> {
  return deleteIdsBefore(trx, 'request_logs', { cutoff, idBelow: firstIdAt('req', Date.parse(cutoff)) }, batch);
}
