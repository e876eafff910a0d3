import type { Trx } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import type { EventsTable } from '../events/tables.ts';
import { newId } from '../kit/ids.ts';
import { storedTime } from '../kit/time.ts';
import type { WebhookDeliveriesTable } from './tables.ts';

/** Whether an endpoint's `enabled_events` takes this type; a test event goes only where it was asked for. */
export function subscribes(enabledEvents: string[], type: string): boolean {
  if (type === 'webhook_endpoint.test') return false;
  return enabledEvents.includes('*') || enabledEvents.includes(type);
}

/**
 * In the event's own write: one pending delivery, due now, per enabled endpoint of the owner that takes the event,
 * so that a committed event always has its deliveries and a worker finds them even after a crash.
 */
const enabledEndpoints = prepared<Pick<EventsTable, 'org_id' | 'mode'>, { id: string; enabled_events: string }>(
  { org_id: true, mode: true },
  (db, p) =>
    db
      .selectFrom('webhook_endpoints')
      .select(['id', 'enabled_events'])
      .where('org_id', '=', p.org_id)
      .where('mode', '=', p.mode)
      .where('status', '=', 'enabled'),
);

export async function fanOut(trx: Trx, event: EventsTable, at: Date, onlyEndpoint?: string): Promise<void> {
  const enabled = (await enabledEndpoints(trx, { org_id: event.org_id, mode: event.mode })).rows;
  const endpoints = onlyEndpoint === undefined ? enabled : enabled.filter((e) => e.id === onlyEndpoint);
  const now = storedTime(at);
  const rows: WebhookDeliveriesTable[] = endpoints
    .filter((e) => onlyEndpoint !== undefined || subscribes(JSON.parse(e.enabled_events) as string[], event.type))
    .map((e) => ({
      id: newId('whd', at.getTime()),
      org_id: event.org_id,
      mode: event.mode,
      endpoint_id: e.id,
      event_id: event.id,
      status: 'pending',
      attempts: '[]',
      scheduled_attempts: 0,
      manual: 0,
      next_attempt_at: now,
      claim: null,
      created_at: now,
    }));
  if (rows.length > 0) await trx.insertInto('webhook_deliveries').values(rows).execute();
}
