import type { ErrorTable } from '../../platform/http/error-codes.ts';
import { defineModule } from '../../platform/module.ts';
import { deliveryOps, eventDeliveriesRoutes } from './api/deliveries.routes.ts';
import { endpointOps } from './api/endpoints.routes.ts';
import type { WebhookEndpoint } from './api/endpoints.schema.ts';
import { registerWebhookMetrics } from './engine/metrics.ts';
import { WEBHOOK_SECRET_COLUMN } from './engine/signing-secrets.ts';
import { installWebhooks } from './install.ts';
import { WEBHOOKS_MIGRATIONS } from './migrations/index.ts';
import { WebhooksSettings } from './settings.ts';

declare module '../../platform/outbox/types.ts' {
  interface EventPayloads {
    'webhook_endpoint.test': WebhookEndpoint;
  }
}

/** The webhooks' error codes (docs/api.md#webhooks). */
export const WEBHOOK_ERRORS = {
  webhook_endpoint_limit_reached: {
    status: 409,
    title: 'Webhook endpoint limit reached',
    description: 'The organisation already has 16 webhook endpoints of this mode. Delete one first.',
  },
  webhook_endpoint_disabled: {
    status: 409,
    title: 'Webhook endpoint disabled',
    description: 'The webhook endpoint is disabled; enable it (`status: enabled`) before sending to it again.',
  },
} as const satisfies ErrorTable;

/**
 * Webhooks: the public API (endpoints, deliveries, an event's deliveries) and the delivery engine it builds, which
 * the delivery processes run (src/deliver.ts). Its fan-out (`fanOut`) runs when events are numbered and its
 * deliveries go before their events (`deleteDeliveriesOf`): the composition root hands both to the events.
 */
export const webhooks = defineModule({
  name: 'webhooks',
  migrations: WEBHOOKS_MIGRATIONS,
  tags: [
    {
      name: 'Webhooks',
      description:
        'Endpoints that receive events as signed POSTs (Standard Webhooks v1), at least once, with a delivery ' +
        'log and replay.',
    },
  ],
  settings: WebhooksSettings,
  errors: WEBHOOK_ERRORS,
  eventTypes: ['webhook_endpoint.test'],
  sealedColumns: [WEBHOOK_SECRET_COLUMN],
  install(app, { settings, database, clock, events, withIdempotency, resolve, secrets, sequencer, registry }) {
    installWebhooks(app, { config: settings, database, clock, events, withIdempotency, resolve, secrets });
    // Webhooks' view of an event, listed beside the events' own routes.
    eventDeliveriesRoutes(app, { db: database.db, caughtUp: sequencer.caughtUp });
    registerWebhookMetrics(registry, app.webhookDelivery.metrics);
  },
});

export { deleteDeliveriesOf } from './api/deliveries.repository.ts';
export { fanOut } from './api/fan-out.ts';

/** The webhooks' operations, declared (src/ops.ts). */
export const webhookOps = { ...endpointOps, ...deliveryOps };

// The public face the dashboard reads.
export { DeliveryIdParams, EndpointDeliveriesQuery, type WebhookDelivery } from './api/deliveries.schema.ts';
export { listEventDeliveries } from './api/deliveries.service.ts';
export { EndpointIdParams, type WebhookEndpoint } from './api/endpoints.schema.ts';
export type { WebhookEndpointsTable } from './tables.ts';
