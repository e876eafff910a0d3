import type { Db } from '../db/database.ts';
import type { Principal } from '../platform/auth/principal.ts';

export interface ProducedEvent {
  id: string;
  type: string;
  /** The id of the object the event is about (its `data.object.id`). */
  objectId: string;
}

/**
 * The events a request produced, for its page in the request log: the org's events of that mode that carry the
 * request's id (events/tables.ts, `request_id`), found by its index, in the order they were minted.
 */
export async function eventsOfRequest(db: Db, owner: Principal, requestId: string): Promise<ProducedEvent[]> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'type', 'body'])
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .where('request_id', '=', requestId)
    .orderBy('id')
    .limit(50)
    .execute();
  return rows.map((row) => {
    const event = JSON.parse(row.body) as { data: { object: { id?: string } } };
    return { id: row.id, type: row.type, objectId: String(event.data.object.id ?? '') };
  });
}
