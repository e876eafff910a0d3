import { apiTime } from '../../../platform/kit/time.ts';
import { parseMetadata } from '../../metadata/index.ts';
import type { WebhookEndpointsTable } from '../tables.ts';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from './endpoints.schema.ts';

export function endpointFromRow(row: WebhookEndpointsTable): WebhookEndpoint {
  return {
    id: row.id,
    object: 'webhook_endpoint',
    url: row.url,
    enabled_events: JSON.parse(row.enabled_events) as string[],
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    metadata: parseMetadata(row.metadata),
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
  };
}

export const endpointWithSecret = (row: WebhookEndpointsTable, secret: string): WebhookEndpointWithSecret => ({
  ...endpointFromRow(row),
  secret,
});
