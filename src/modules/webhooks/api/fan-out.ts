import { prepared } from '../../../db/prepared.ts';
import { preparedInsertRows } from '../../../db/prepared-insert.ts';
import { newId } from '../../../platform/kit/ids.ts';
import type { AfterNumbered } from '../../../platform/outbox/emit.ts';
import type { EventsTable } from '../../../platform/outbox/tables.ts';
import { DELIVERY_STATE_COLUMNS, type WebhookDeliveriesTable } from '../tables.ts';

/** Whether an endpoint's `enabled_events` takes this type; a test event goes only where it was asked for. */
export function subscribes(enabledEvents: string[], type: string): boolean {
  if (type === 'webhook_endpoint.test') return false;
  return enabledEvents.includes('*') || enabledEvents.includes(type);
}

type Endpoint = { id: string; enabled_events: string; created_at: string };
const enabledEndpoints = prepared<Pick<EventsTable, 'org_id' | 'mode'>, Endpoint>(
  { org_id: true, mode: true },
  (db, p) =>
    db
      .selectFrom('webhook_endpoints')
      .select(['id', 'enabled_events', 'created_at'])
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

/** A test event goes to the endpoint it tests, whatever that endpoint subscribes to, and to no other. */
function testedEndpoint(event: EventsTable): string | undefined {
  if (event.type !== 'webhook_endpoint.test') return undefined;
  return (JSON.parse(event.body) as { data: { object: { id: string } } }).data.object.id;
}

/**
 * In the transaction that numbers the events (the write itself on SQLite, the sequencer's pass on PostgreSQL): one
 * pending delivery, due now, per event and enabled endpoint of its owner that takes it, so that a numbered event
 * always has its deliveries and a worker finds them even after a crash. The owners' endpoints are read together.
 */
export const fanOut: AfterNumbered = async (trx, events) => {
  const owners = [...new Set(events.map((e) => `${e.org_id}\n${e.mode}`))];
  const enabled = new Map<string, { id: string; events: string[]; since: string }[]>();
  await Promise.all(
    owners.map(async (owner) => {
      const [org_id, mode] = owner.split('\n') as [string, EventsTable['mode']];
      const { rows } = await enabledEndpoints(trx, { org_id, mode });
      enabled.set(
        owner,
        rows.map((e) => ({ id: e.id, events: JSON.parse(e.enabled_events) as string[], since: e.created_at })),
      );
    }),
  );
  const rows = events.flatMap((event) => {
    const only = testedEndpoint(event);
    const at = Date.parse(event.created_at);
    return (
      enabled
        .get(`${event.org_id}\n${event.mode}`)!
        // An endpoint takes what happens from its creation on. On PostgreSQL the sequencer numbers (and fans out) an
        // event a moment after its write, by when a newer endpoint may exist: it must not receive the older event,
        // as it would not have on SQLite, where the fan-out runs inside the write.
        .filter((endpoint) => only !== undefined || endpoint.since <= event.created_at)
        .filter((endpoint) => (only === undefined ? subscribes(endpoint.events, event.type) : endpoint.id === only))
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
            next_attempt_at: event.created_at,
            claim: null,
            created_at: event.created_at,
          }),
        )
    );
  });
  if (rows.length > 0) insertDeliveries(trx, rows);
};
