import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../../../db/database.ts';
import { needs } from '../../../platform/auth/permissions.ts';
import type { WithIdempotency } from '../../../platform/idempotency/idempotency.ts';
import { Ref } from '../../../platform/kit/schema.ts';
import { declareRead, declareWrite, implement } from '../../../platform/operations/operation.ts';
import { declareOperations } from '../../../platform/operations/register.ts';
import { EventIdParams } from '../../events/index.ts';
import { DeliveryIdParams, EventDeliveriesQuery, WebhookDelivery, WebhookDeliveryList } from './deliveries.schema.ts';
import { listEventDeliveries, retryDelivery } from './deliveries.service.ts';

/** Deliveries' operations, declared at module scope: what the dashboard and the CLI name through `ops` (src/ops.ts). */
export const deliveryOps = {
  retryWebhookDelivery: declareWrite({
    method: 'POST',
    path: '/v1/webhook_deliveries/:id/retry',
    permission: needs('webhook_endpoints', 'write'),
    schema: {
      operationId: 'retryWebhookDelivery',
      'x-plinth-sdk': { resource: 'webhookDeliveries', method: 'retry' },
      tags: ['Webhooks'],
      summary: 'Retry a delivery now',
      description:
        'One more attempt, due now and outside the retry schedule (it does not use one up); whatever its status, ' +
        'succeeded included. Answers with the delivery, `pending`; its log shows the attempt moments later.',
      'x-body-optional': true,
      'x-problems': ['webhook_endpoint_disabled'],
      params: DeliveryIdParams,
      body: Type.Object({}, { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] }),
      response: { 200: Ref<WebhookDelivery>('WebhookDelivery') },
    },
  }),
  listEventDeliveries: declareRead({
    method: 'GET',
    path: '/v1/events/:id/deliveries',
    permission: needs('events', 'read'),
    schema: {
      operationId: 'listEventDeliveries',
      'x-plinth-sdk': { resource: 'events', method: 'listDeliveries' },
      tags: ['Events'],
      summary: "An event's webhook deliveries, newest first",
      params: EventIdParams,
      querystring: EventDeliveriesQuery,
      response: { 200: Ref<WebhookDeliveryList>('WebhookDeliveryList') },
    },
  }),
};

/** Replay (docs/api.md#how-delivery-works): one attempt now, outside the schedule. */
export function deliveriesRoutes(
  app: FastifyInstance,
  deps: { withIdempotency: WithIdempotency; poke: () => void },
): void {
  app.addSchema(WebhookDelivery);
  app.addSchema(WebhookDeliveryList);
  declareOperations(app, deps, [
    implement(deliveryOps.retryWebhookDelivery, {
      write: (ctx, input) => retryDelivery(ctx, input.params.id),
      settled: deps.poke,
    }),
  ]);
}

/**
 * Where an event was delivered (docs/api.md#how-delivery-works), under the event's path. Registered right after the
 * events' own routes, so that the OpenAPI document lists it beside them.
 */
export function eventDeliveriesRoutes(app: FastifyInstance, deps: { db: Db; caughtUp: () => Promise<void> }): void {
  declareOperations(app, {}, [
    implement(deliveryOps.listEventDeliveries, {
      read: async (owner, input) => {
        await deps.caughtUp();
        return listEventDeliveries(deps.db, owner, input.params.id, input.query);
      },
    }),
  ]);
}
