import type { Db } from '../../db/database.ts';
import { createdRange } from '../../platform/http/created-filter.ts';
import { notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { isIdOf } from '../../platform/kit/ids.ts';
import type { EventOwner } from '../../platform/outbox/emit.ts';
import type { EventsTable } from '../../platform/outbox/tables.ts';
import * as repo from './events.repository.ts';
import { EVENT, type Event, type EventListQuery } from './events.schema.ts';

/** The API view of an event is its stored body: the same bytes its webhooks carry, parsed. */
export const eventFromRow = (row: EventsTable): Event => JSON.parse(row.body) as Event;

export async function findEventOrThrow(db: Db, owner: EventOwner, id: string): Promise<EventsTable> {
  const row = isIdOf(EVENT.prefix, id) ? await repo.findEvent(db, owner, id) : undefined;
  if (row === undefined) throw notFound(EVENT, id);
  return row;
}

export async function listEvents(db: Db, owner: EventOwner, query: EventListQuery) {
  const page = await listPage(
    query,
    async (id) => isIdOf(EVENT.prefix, id) && (await repo.findEvent(db, owner, id)) !== undefined,
    (take, cursor) => repo.pageEvents(db, owner, query.type, take, cursor, createdRange(query.created)),
  );
  return { object: 'list' as const, data: page.rows.map(eventFromRow), has_more: page.hasMore };
}
