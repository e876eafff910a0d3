import { listHorizon, listsInCommitOrder } from '../../db/commit-order.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { Cursor } from '../../db/keyset.ts';
import { pageOf } from '../../db/keyset.ts';
import { prepared, preparedWrite } from '../../db/prepared.ts';
import { DELIVERY_STATE_COLUMNS, type WebhookDeliveriesTable } from './tables.ts';

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

const dueOne = prepared<{ now: string }, { id: string }>({ now: true }, (db, p) =>
  db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', p.now)
    .limit(1),
);

/** Whether anything is due: a read, so that an idle worker costs no write. */
export async function anyDue(db: Db, now: string): Promise<boolean> {
  return (await dueOne(db, { now })).rows.length > 0;
}

type Claim = { now: string; lease: string; token: string; limit: number };
const CLAIM = { now: true, lease: true, token: true, limit: true } as const;
// The due rows, oldest first; on PostgreSQL `FOR UPDATE SKIP LOCKED` so that processes claim side by side.
const claimRows = (skipLocked: boolean) =>
  preparedWrite<Claim>(CLAIM, (db, p) =>
    db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: p.lease, claim: p.token })
      .where('id', 'in', (eb) => {
        const due = eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', p.now)
          .orderBy('next_attempt_at')
          .limit(p.limit);
        return skipLocked ? due.forUpdate().skipLocked() : due;
      }),
  );
const claimUnlocked = claimRows(false);
const claimSkippingLocked = claimRows(true);
const claimedRows = prepared<{ token: string }, WebhookDeliveriesTable & ClaimedExtras>({ token: true }, (db, p) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .selectAll('d')
    .select(['e.body', 'e.created_at as event_created_at', 'w.url', 'w.secret as endpoint_secret'])
    .select(['w.previous_secret', 'w.previous_expires_at'])
    .where('d.claim', '=', p.token),
);

interface ClaimedExtras {
  body: string;
  event_created_at: string;
  url: string;
  endpoint_secret: string;
  previous_secret: string | null;
  previous_expires_at: string | null;
}

/**
 * Claims up to `limit` due deliveries: their next_attempt_at becomes the lease's end (a worker that dies gives them
 * back then) and `claim` this worker's token, which is fresh for every claim, so the claimed rows are read back by
 * it. On PostgreSQL `FOR UPDATE SKIP LOCKED` lets processes claim side by side without waiting for or taking each
 * other's rows; SQLite has one process, whose writes run one at a time.
 */
export async function claimDue(
  trx: Trx,
  skipLocked: boolean,
  now: string,
  leaseUntil: string,
  token: string,
  limit: number,
): Promise<Claimed[]> {
  await (skipLocked ? claimSkippingLocked : claimUnlocked)(trx, { now, lease: leaseUntil, token, limit });
  const { rows } = await claimedRows(trx, { token });
  return rows.map(({ body, event_created_at, url, endpoint_secret, previous_secret, previous_expires_at, ...d }) => ({
    delivery: d,
    body,
    eventCreatedAt: event_created_at,
    url,
    secret: endpoint_secret,
    previousSecret: previous_secret,
    previousExpiresAt: previous_expires_at,
  }));
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
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
