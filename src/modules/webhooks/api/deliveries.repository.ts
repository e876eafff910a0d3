import { sql } from 'kysely';
import { listHorizon, listsInCommitOrder } from '../../../db/commit-order.ts';
import type { Db, Trx } from '../../../db/database.ts';
import type { Cursor } from '../../../db/keyset.ts';
import { pageOf } from '../../../db/keyset.ts';
import { prepared, preparedWrite } from '../../../db/prepared.ts';
import type { Mode } from '../../../platform/auth/principal.ts';
import { DELIVERY_STATE_COLUMNS, type WebhookDeliveriesTable } from '../tables.ts';

// `status = 'pending'` as a literal: the indexes of pending deliveries are partial, and a partial index serves only a
// query that states its predicate (neither SQLite nor a PostgreSQL generic plan matches a bound parameter).
export const PENDING = sql<boolean>`status = 'pending'`;

const dueOne = prepared<{ now: string }, { id: string }>({ now: true }, (db, p) =>
  // `limit 1` written into the SQL: a bound LIMIT makes SQLite re-prepare the statement at every run (claims.repository.ts).
  db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where(PENDING)
    .where('next_attempt_at', '<=', p.now)
    .limit(sql.lit(1)),
);

/** Whether anything is due: a read, so that an idle worker costs no write. */
export async function anyDue(db: Db, now: string): Promise<boolean> {
  return (await dueOne(db, { now })).rows.length > 0;
}

type Settled = Pick<WebhookDeliveriesTable, keyof typeof DELIVERY_STATE_COLUMNS>;
const settleRow = preparedWrite<Settled & { id: string; token: string }>(
  { id: true, token: true, ...DELIVERY_STATE_COLUMNS },
  (db, { id, token, ...changes }) =>
    db.updateTable('webhook_deliveries').set(changes).where('id', '=', id).where('claim', '=', token),
);

/** Records a result only while this claim still holds the lease; false when it was lost (expired, claimed again). */
export async function settleClaimed(trx: Trx, id: string, token: string, changes: Settled): Promise<boolean> {
  const result = await settleRow(trx, { id, token, ...changes });
  return Number(result.numAffectedRows ?? 0) > 0;
}

export async function updateDelivery(trx: Trx, id: string, changes: Partial<WebhookDeliveriesTable>): Promise<void> {
  await trx.updateTable('webhook_deliveries').set(changes).where('id', '=', id).execute();
}

/** One page of the deliveries of one endpoint or one event (already checked to be the owner's). */
export async function pageDeliveries(
  db: Db,
  by: { endpointId: string } | { eventId: string },
  status: string | undefined,
  take: number,
  cursor: Cursor | undefined,
): Promise<WebhookDeliveriesTable[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll();
  query =
    'endpointId' in by ? query.where('endpoint_id', '=', by.endpointId) : query.where('event_id', '=', by.eventId);
  if (status !== undefined) query = query.where('status', '=', status as WebhookDeliveriesTable['status']);
  const horizon = listsInCommitOrder(db) ? await listHorizon(db) : undefined;
  const order = { table: 'webhook_deliveries', horizon };
  return pageOf(query, order, take, cursor).execute();
}

/** Before events are purged (events/purge.ts): their deliveries, which refer to them. */
export async function deleteDeliveriesOf(trx: Trx, eventIds: string[]): Promise<void> {
  await trx.deleteFrom('webhook_deliveries').where('event_id', 'in', eventIds).execute();
}

/** Deliveries not yet settled: the backlog the metrics report. */
export async function countPending(db: Db): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(PENDING)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Pending deliveries by organisation and mode, the largest backlogs first (the metrics' top organisations). */
export async function pendingByOrg(db: Db): Promise<{ orgId: string; mode: Mode; pending: number }[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['org_id', 'mode', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where(PENDING)
    .groupBy(['org_id', 'mode'])
    .execute();
  return rows
    .map((r) => ({ orgId: r.org_id, mode: r.mode, pending: Number(r.n) }))
    .sort((a, b) => b.pending - a.pending || (a.orgId < b.orgId ? -1 : 1));
}
