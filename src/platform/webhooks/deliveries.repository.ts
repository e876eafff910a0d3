import type { Db, Trx } from '../../db/database.ts';
import type { Cursor } from '../../db/keyset.ts';
import { pageOf } from '../../db/keyset.ts';
import type { EventOwner } from '../events/emit.ts';
import type { WebhookDeliveriesTable } from './tables.ts';

type Executor = Db | Trx;

/** What a worker needs for one attempt, read in the claim's own write. */
export interface Claimed {
  delivery: WebhookDeliveriesTable;
  body: string;
  eventCreatedAt: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousExpiresAt: string | null;
}

/** Whether anything is due: a read, so that an idle worker costs no write. */
export async function anyDue(db: Db, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims up to `limit` due deliveries: their next_attempt_at becomes the lease's end (a worker that dies gives them
 * back then) and `claim` this worker's token. On PostgreSQL `FOR UPDATE SKIP LOCKED` lets processes claim side by
 * side without waiting for or taking each other's rows; SQLite has one process, whose writes run one at a time.
 */
export async function claimDue(
  trx: Trx,
  skipLocked: boolean,
  now: string,
  leaseUntil: string,
  token: string,
  limit: number,
): Promise<Claimed[]> {
  let due = trx
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit);
  if (skipLocked) due = due.forUpdate().skipLocked();
  const ids = (await due.execute()).map((r) => r.id);
  if (ids.length === 0) return [];
  await trx
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: leaseUntil, claim: token })
    .where('id', 'in', ids)
    .execute();
  const rows = await trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .selectAll('d')
    .select(['e.body', 'e.created_at as event_created_at', 'w.url', 'w.secret as endpoint_secret'])
    .select(['w.previous_secret', 'w.previous_expires_at'])
    .where('d.id', 'in', ids)
    .execute();
  return rows.map(({ body, event_created_at, url, endpoint_secret, previous_secret, previous_expires_at, ...d }) => ({
    delivery: d as WebhookDeliveriesTable,
    body,
    eventCreatedAt: event_created_at,
    url,
    secret: endpoint_secret,
    previousSecret: previous_secret,
    previousExpiresAt: previous_expires_at,
  }));
}

/** Records a result only while this claim still holds the lease; false when it was lost (expired, claimed again). */
export async function settleClaimed(
  trx: Trx,
  id: string,
  token: string,
  changes: Partial<WebhookDeliveriesTable>,
): Promise<boolean> {
  const result = await trx
    .updateTable('webhook_deliveries')
    .set(changes)
    .where('id', '=', id)
    .where('claim', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function updateDelivery(trx: Trx, id: string, changes: Partial<WebhookDeliveriesTable>): Promise<void> {
  await trx.updateTable('webhook_deliveries').set(changes).where('id', '=', id).execute();
}

export function findDelivery(db: Executor, owner: EventOwner, id: string) {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
}

/** One page of the deliveries of one endpoint or one event (already checked to be the owner's). */
export function pageDeliveries(
  db: Executor,
  by: { endpointId: string } | { eventId: string },
  status: string | undefined,
  take: number,
  cursor: Cursor | undefined,
): Promise<WebhookDeliveriesTable[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll();
  query =
    'endpointId' in by ? query.where('endpoint_id', '=', by.endpointId) : query.where('event_id', '=', by.eventId);
  if (status !== undefined) query = query.where('status', '=', status as WebhookDeliveriesTable['status']);
  return pageOf(query, take, cursor).execute();
}

/** Deliveries not yet settled: the backlog the metrics report. */
export async function countPending(db: Db): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
