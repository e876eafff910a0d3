import { deleteIdsBefore } from '../../db/batched-delete.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { Cursor } from '../../db/keyset.ts';
import { prepared } from '../../db/prepared.ts';
import { type CreatedRange, createdWithin } from '../../platform/http/created-filter.ts';
import { firstIdAt } from '../../platform/kit/ids.ts';
import type { EventOwner } from '../../platform/outbox/emit.ts';
import type { EventsTable } from '../../platform/outbox/tables.ts';

const selectEvent = prepared<{ id: string; org_id: string; mode: EventOwner['mode'] }, EventsTable>(
  { id: true, org_id: true, mode: true },
  (db, p) =>
    db
      .selectFrom('events')
      .select(['id', 'org_id', 'mode', 'type', 'sequence', 'body', 'created_at'])
      .where('id', '=', p.id)
      .where('org_id', '=', p.org_id)
      .where('mode', '=', p.mode)
      .where('sequence', 'is not', null),
);

/** One of the owner's events, once numbered: before that it is neither listed nor retrievable (docs/api.md#events). */
export async function findEvent(db: Db, owner: EventOwner, id: string): Promise<EventsTable | undefined> {
  return (await selectEvent(db, { id, org_id: owner.orgId, mode: owner.mode })).rows[0];
}

/**
 * One page of the owner's events in sequence order (newest first when walking older): the sequence, not the id, is
 * commit order, so a page boundary can never skip an event that committed later with a smaller id.
 */
export async function pageEvents(
  db: Db,
  owner: EventOwner,
  type: string | undefined,
  take: number,
  cursor: Cursor | undefined,
  created: CreatedRange = {},
): Promise<EventsTable[]> {
  let query = db
    .selectFrom('events')
    .select(['id', 'org_id', 'mode', 'type', 'sequence', 'body', 'created_at'])
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .where('sequence', 'is not', null);
  if (type !== undefined) query = query.where('type', '=', type);
  query = createdWithin(query, 'events', 'evt', created);
  const at = cursor === undefined ? undefined : await findEvent(db, owner, cursor.id);
  if (at === undefined || cursor === undefined || cursor.older) {
    if (at !== undefined) query = query.where('sequence', '<', at.sequence!);
    return query.orderBy('sequence', 'desc').limit(take).execute();
  }
  return query.where('sequence', '>', at.sequence!).orderBy('sequence', 'asc').limit(take).execute();
}

/** What must go before events are deleted (rows that refer to them), in the same transaction. */
export type BeforeEventsDeleted = (trx: Trx, eventIds: string[]) => Promise<void>;

/**
 * Deletes up to `batch` events created before `cutoff`, oldest first, after `beforeDelete` has removed what refers
 * to them (their webhook deliveries); returns how many events went. Ids sort by creation time, so the primary key
 * finds them: no index on `created_at` is kept for this alone (it cost every event one more index entry). `created_at` still decides, so an id of an older format, which sorts
 * before every current one, is never taken for older than it is.
 */
export function deleteEventsBefore(
  trx: Trx,
  cutoff: string,
  batch: number,
  beforeDelete: BeforeEventsDeleted,
): Promise<number> {
  return deleteIdsBefore(trx, 'events', { cutoff, idBelow: firstIdAt('evt', Date.parse(cutoff)) }, batch, beforeDelete);
}

/**
 * The owner's numbered events after `after`, up to `upTo` included, in sequence order (the live stream's read,
 * docs/api.md#the-live-event-stream): at most `take` of them, of one type when `type` is given.
 */
export function eventsAfter(
  db: Db,
  owner: EventOwner,
  range: { after: number; upTo: number; type: string | undefined },
  take: number,
): Promise<Pick<EventsTable, 'type' | 'sequence' | 'body'>[]> {
  let query = db
    .selectFrom('events')
    .select(['type', 'sequence', 'body'])
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .where('sequence', '>', range.after)
    .where('sequence', '<=', range.upTo);
  if (range.type !== undefined) query = query.where('type', '=', range.type);
  return query.orderBy('sequence', 'asc').limit(take).execute();
}

/** The smallest sequence the owner still keeps (older ones were purged), or null when none is kept. */
export async function oldestKeptSequence(db: Db, owner: EventOwner): Promise<number | null> {
  const row = await db
    .selectFrom('events')
    .select('sequence')
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .where('sequence', 'is not', null)
    .orderBy('sequence', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? null : Number(row.sequence);
}

/** The last number drawn by each of these org-and-mode counters (`org\nmode` → number); absent means none yet. */
export async function lastSequences(db: Db, orgIds: string[]): Promise<Map<string, number>> {
  if (orgIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('event_sequences')
    .select(['org_id', 'mode', 'last_sequence'])
    .where('org_id', 'in', orgIds)
    .execute();
  return new Map(rows.map((r) => [`${r.org_id}\n${r.mode}`, Number(r.last_sequence)]));
}
