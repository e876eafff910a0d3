import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../../db/database.ts';
import { requestOf } from '../events/emit.ts';
import type { Event } from '../events/events.schema.ts';
import { ListQuery } from '../http/pagination.ts';
import type { WithIdempotency } from '../idempotency/idempotency.ts';
import { principalOf } from '../keys/auth.ts';
import { Ref } from '../kit/schema.ts';
import { EndpointDeliveriesQuery, type WebhookDeliveryList } from './deliveries.schema.ts';
import { listEndpointDeliveries } from './deliveries.service.ts';
import {
  DeletedWebhookEndpoint,
  EndpointCreateBody,
  EndpointIdParams,
  EndpointUpdateBody,
  RotateBody,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from './endpoints.schema.ts';
import * as service from './endpoints.service.ts';
import { endpointFromRow } from './endpoints.view.ts';

type List<T> = { object: 'list'; data: T[]; has_more: boolean };
const TAG = ['Webhooks'];
const NoBody = Type.Object({}, { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] });

/** Webhook endpoints (CONTRACT §12); every POST is one write through withIdempotency. */
export function endpointsRoutes(
  app: FastifyInstance,
  deps: service.EndpointsDeps & { withIdempotency: WithIdempotency; write: Database['write'] },
): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const s of [WebhookEndpoint, WebhookEndpointWithSecret, WebhookEndpointList, DeletedWebhookEndpoint])
    app.addSchema(s);
  const WithSecret = Ref<WebhookEndpointWithSecret>('WebhookEndpointWithSecret');
  const Endpoint = Ref<WebhookEndpoint>('WebhookEndpoint');
  const secretFields = ['secret' as const];

  r.post(
    '/v1/webhook_endpoints',
    {
      schema: {
        operationId: 'createWebhookEndpoint',
        tags: TAG,
        summary: 'Create a webhook endpoint',
        description:
          'At most 16 per organisation and mode. The signing `secret` is in this response only. Live endpoints ' +
          'must be `https`; a host that is or resolves to a private, loopback or link-local address is refused.',
        'x-problems': ['webhook_endpoint_limit_reached'],
        body: EndpointCreateBody,
        response: { 200: WithSecret },
      },
    },
    async (request, reply) => {
      const owner = principalOf(request);
      await service.checkUrl(deps, owner.mode, request.body.url);
      return deps.withIdempotency(request, reply, (trx) => service.createEndpoint(deps, trx, owner, request.body), {
        secretFields,
      });
    },
  );

  r.get(
    '/v1/webhook_endpoints',
    {
      schema: {
        operationId: 'listWebhookEndpoints',
        tags: TAG,
        summary: 'List webhook endpoints, newest first',
        querystring: ListQuery('endpoint', 'we'),
        response: { 200: Ref<List<WebhookEndpoint>>('WebhookEndpointList') },
      },
    },
    (request) => service.listEndpoints(deps, principalOf(request), request.query),
  );

  r.get(
    '/v1/webhook_endpoints/:id',
    {
      schema: {
        operationId: 'retrieveWebhookEndpoint',
        tags: TAG,
        summary: 'Retrieve a webhook endpoint',
        params: EndpointIdParams,
        response: { 200: Endpoint },
      },
    },
    async (request) =>
      endpointFromRow(await service.findEndpointOrThrow(deps.db, principalOf(request), request.params.id)),
  );

  r.post(
    '/v1/webhook_endpoints/:id',
    {
      schema: {
        operationId: 'updateWebhookEndpoint',
        tags: TAG,
        summary: 'Update a webhook endpoint',
        description:
          '`status: disabled` stops deliveries (its pending ones fail; retry them later); `enabled` resumes.',
        params: EndpointIdParams,
        body: EndpointUpdateBody,
        response: { 200: Endpoint },
      },
    },
    async (request, reply) => {
      const owner = principalOf(request);
      await service.checkUrl(deps, owner.mode, request.body.url);
      return deps.withIdempotency(request, reply, (trx) =>
        service.updateEndpoint(deps, trx, owner, request.params.id, request.body),
      );
    },
  );

  r.delete(
    '/v1/webhook_endpoints/:id',
    {
      schema: {
        operationId: 'deleteWebhookEndpoint',
        tags: TAG,
        summary: 'Delete a webhook endpoint',
        description: 'Deletes the endpoint and its delivery log; nothing more is sent to it.',
        params: EndpointIdParams,
        response: { 200: Ref<{ id: string; object: 'webhook_endpoint'; deleted: true }>('DeletedWebhookEndpoint') },
      },
    },
    (request) => deps.write((trx) => service.deleteEndpoint(trx, principalOf(request), request.params.id)),
  );

  r.post(
    '/v1/webhook_endpoints/:id/rotate_secret',
    {
      schema: {
        operationId: 'rotateWebhookEndpointSecret',
        tags: TAG,
        summary: 'Rotate the signing secret',
        description:
          'A new secret, in this response only. The previous one keeps signing beside it (two signatures in ' +
          '`webhook-signature`) for `expire_previous_in_seconds`.',
        'x-body-optional': true,
        params: EndpointIdParams,
        body: RotateBody,
        response: { 200: WithSecret },
      },
    },
    (request, reply) =>
      deps.withIdempotency(
        request,
        reply,
        (trx) =>
          service.rotateSecret(
            deps,
            trx,
            principalOf(request),
            request.params.id,
            request.body.expire_previous_in_seconds,
          ),
        { secretFields },
      ),
  );

  r.post(
    '/v1/webhook_endpoints/:id/test',
    {
      schema: {
        operationId: 'testWebhookEndpoint',
        tags: TAG,
        summary: 'Send a test event',
        description: 'Emits a `webhook_endpoint.test` event, delivered to this endpoint only; answers with the event.',
        'x-body-optional': true,
        'x-problems': ['webhook_endpoint_disabled'],
        params: EndpointIdParams,
        body: NoBody,
        response: { 200: Ref<Event>('Event') },
      },
    },
    (request, reply) =>
      deps.withIdempotency(request, reply, (trx) =>
        service.testEndpoint(deps, trx, principalOf(request), request.params.id, requestOf(request)),
      ),
  );

  r.get(
    '/v1/webhook_endpoints/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookEndpointDeliveries',
        tags: TAG,
        summary: "An endpoint's deliveries, newest first",
        params: EndpointIdParams,
        querystring: EndpointDeliveriesQuery,
        response: { 200: Ref<WebhookDeliveryList>('WebhookDeliveryList') },
      },
    },
    (request) => listEndpointDeliveries(deps.db, principalOf(request), request.params.id, request.query),
  );
}
