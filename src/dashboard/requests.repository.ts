import type { Db } from '../db/database.ts';
import type { Principal } from '../platform/keys/principal.ts';
import { firstIdAt, timeOfId } from '../platform/kit/ids.ts';

export interface ProducedEvent {
  id: string;
  type: string;
  /** The id of the object the event is about (its `data.object.id`). */
  objectId: string;
}

// An event is minted inside the request that caused it, between its arrival and its answer; ids run at most a
// little ahead of the clock (kit/ids.ts), and the margin covers that and a clock step.
const MARGIN_MS = 2000;

/**
 * The events a request produced, for its page in the request log: the org's events of that mode minted while the
 * request ran (an id range, so the primary key bounds the scan), whose body names the request (`request.id`).
 */
export async function eventsOfRequest(
  db: Db,
  owner: Principal,
  requestId: string,
  durationMs: number,
): Promise<ProducedEvent[]> {
  const arrived = timeOfId(requestId);
  const rows = await db
    .selectFrom('events')
    .select(['id', 'type', 'body'])
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .where('id', '>=', firstIdAt('evt', arrived - MARGIN_MS))
    .where('id', '<', firstIdAt('evt', arrived + Math.ceil(durationMs) + MARGIN_MS))
    .where('body', 'like', `%${requestId}%`)
    .orderBy('id')
    .limit(50)
    .execute();
  return rows.flatMap((row) => {
    const event = JSON.parse(row.body) as { request: { id: string } | null; data: { object: { id?: string } } };
    if (event.request?.id !== requestId) return [];
    return [{ id: row.id, type: row.type, objectId: String(event.data.object.id ?? '') }];
  });
}
