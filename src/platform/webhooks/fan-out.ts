import { prepared, preparedInsertRows } from '../../db/prepared.ts';
import { type AfterRecord, type EventRecorder, eventRecorder } from '../events/emit.ts';
import type { EventsTable } from '../events/tables.ts';
import { newId } from '../kit/ids.ts';
import type { Clock } from '../kit/time.ts';
import { DELIVERY_STATE_COLUMNS, type WebhookDeliveriesTable } from './tables.ts';

/** Whether an endpoint's `enabled_events` takes this type; a test event goes only where it was asked for. */
export function subscribes(enabledEvents: string[], type: string): boolean {
  if (type === 'webhook_endpoint.test') return false;
  return enabledEvents.includes('*') || enabledEvents.includes(type);
}

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

const insertDeliveries = preparedInsertRows('webhook_deliveries', {
  id: true,
  org_id: true,
  mode: true,
  endpoint_id: true,
  event_id: true,
  created_at: true,
  ...DELIVERY_STATE_COLUMNS,
});

/**
 * In the events' own write: one pending delivery, due now, per event and enabled endpoint of the owner that takes
 * it, so that a committed event always has its deliveries and a worker finds them even after a crash.
 */
export const fanOut: AfterRecord = async (trx, owner, events, onlyEndpoint) => {
  const enabled = (await enabledEndpoints(trx, { org_id: owner.orgId, mode: owner.mode })).rows;
  const endpoints = onlyEndpoint === undefined ? enabled : enabled.filter((e) => e.id === onlyEndpoint);
  if (endpoints.length === 0) return;
  const created = events[0]!.created_at;
  const at = Date.parse(created);
  const takes = endpoints.map((e) => ({ id: e.id, events: JSON.parse(e.enabled_events) as string[] }));
  const rows = events.flatMap((event) =>
    takes
      .filter((endpoint) => onlyEndpoint !== undefined || subscribes(endpoint.events, event.type))
      .map(
        (endpoint): WebhookDeliveriesTable => ({
          id: newId('whd', at),
          org_id: event.org_id,
          mode: event.mode,
          endpoint_id: endpoint.id,
          event_id: event.id,
          status: 'pending',
          attempts: '[]',
          scheduled_attempts: 0,
          manual: 0,
          next_attempt_at: created,
          claim: null,
          created_at: created,
        }),
      ),
  );
  await insertDeliveries(trx, rows);
};

/** The event recorder every writer uses: events, and in the same transaction their webhook deliveries. */
export const eventsWithDeliveries = (clock: Clock): EventRecorder => eventRecorder({ clock, afterRecord: fanOut });
