import { apiTime } from '../../../platform/kit/time.ts';
import type { StoredAttempt } from '../engine/record.ts';
import type { WebhookDeliveriesTable } from '../tables.ts';
import type { WebhookDelivery } from './deliveries.schema.ts';

/** The API view of a delivery row: its attempts parsed, every time in the API's form. */
export function deliveryFromRow(row: WebhookDeliveriesTable): WebhookDelivery {
  return {
    id: row.id,
    object: 'webhook_delivery',
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    status: row.status,
    attempts: (JSON.parse(row.attempts) as StoredAttempt[]).map((a) => ({
      ...a,
      attempted_at: apiTime(a.attempted_at),
    })),
    next_attempt_at: row.next_attempt_at === null ? null : apiTime(row.next_attempt_at),
    created_at: apiTime(row.created_at),
  };
}
