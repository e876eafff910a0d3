import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../../db/database.ts';
import { EventIdParams } from '../events/events.schema.ts';
import type { WithIdempotency } from '../idempotency/idempotency.ts';
import { principalOf } from '../keys/auth.ts';
import { Ref } from '../kit/schema.ts';
import type { Clock } from '../kit/time.ts';
import { DeliveryIdParams, EventDeliveriesQuery, WebhookDelivery, WebhookDeliveryList } from './deliveries.schema.ts';
import { listEventDeliveries, retryDelivery } from './deliveries.service.ts';

/** Replay (CONTRACT §12): one attempt now, outside the schedule. */
export function deliveriesRoutes(
  app: FastifyInstance,
  deps: { clock: Clock; withIdempotency: WithIdempotency; poke: () => void },
): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(WebhookDelivery);
  app.addSchema(WebhookDeliveryList);

  r.post(
    '/v1/webhook_deliveries/:id/retry',
    {
      schema: {
        operationId: 'retryWebhookDelivery',
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
    },
    (request, reply) =>
      deps
        .withIdempotency(request, reply, (trx) => retryDelivery(deps, trx, principalOf(request), request.params.id))
        .finally(deps.poke),
  );
}

/**
 * Where an event was delivered (CONTRACT §12), under the event's path. Registered right after the events' own routes,
 * so that the OpenAPI document lists it beside them.
 */
export function eventDeliveriesRoutes(app: FastifyInstance, deps: { db: Db; caughtUp: () => Promise<void> }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/v1/events/:id/deliveries',
    {
      schema: {
        operationId: 'listEventDeliveries',
        tags: ['Events'],
        summary: "An event's webhook deliveries, newest first",
        params: EventIdParams,
        querystring: EventDeliveriesQuery,
        response: { 200: Ref<WebhookDeliveryList>('WebhookDeliveryList') },
      },
    },
    async (request) => {
      await deps.caughtUp();
      return listEventDeliveries(deps.db, principalOf(request), request.params.id, request.query);
    },
  );
}
