import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { needs } from '../../../platform/auth/permissions.ts';
import { ListQuery } from '../../../platform/http/pagination.ts';
import type { WithIdempotency } from '../../../platform/idempotency/idempotency.ts';
import { Ref } from '../../../platform/kit/schema.ts';
import { declareRead, declareWrite, implement } from '../../../platform/operations/operation.ts';
import { declareOperations } from '../../../platform/operations/register.ts';
import type { Event } from '../../events/index.ts';
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
const WithSecret = Ref<WebhookEndpointWithSecret>('WebhookEndpointWithSecret');
const secretFields = ['secret' as const];
const NoBody = Type.Object({}, { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] });

const Endpoint = Ref<WebhookEndpoint>('WebhookEndpoint');

/** Webhook endpoints' operations, declared at module scope: what the dashboard and the CLI name through `ops` (src/ops.ts). */
export const endpointOps = {
  createWebhookEndpoint: declareWrite({
    method: 'POST',
    path: '/v1/webhook_endpoints',
    permission: needs('webhook_endpoints', 'write'),
    schema: {
      operationId: 'createWebhookEndpoint',
      'x-plinth-sdk': { resource: 'webhookEndpoints', method: 'create' },
      tags: TAG,
      summary: 'Create a webhook endpoint',
      description:
        'At most 16 per organisation and mode. The signing `secret` is in this response only. Live endpoints ' +
        'must be `https`; a host that is or resolves to a private, loopback or link-local address is refused.',
      'x-problems': ['webhook_endpoint_limit_reached'],
      body: EndpointCreateBody,
      response: { 200: WithSecret },
    },
    secretFields,
  }),
  listWebhookEndpoints: declareRead({
    method: 'GET',
    path: '/v1/webhook_endpoints',
    permission: needs('webhook_endpoints', 'read'),
    schema: {
      operationId: 'listWebhookEndpoints',
      'x-plinth-sdk': { resource: 'webhookEndpoints', method: 'list' },
      tags: TAG,
      summary: 'List webhook endpoints, newest first',
      querystring: ListQuery('endpoint', 'we'),
      response: { 200: Ref<List<WebhookEndpoint>>('WebhookEndpointList') },
    },
  }),
  retrieveWebhookEndpoint: declareRead({
    method: 'GET',
    path: '/v1/webhook_endpoints/:id',
    permission: needs('webhook_endpoints', 'read'),
    schema: {
      operationId: 'retrieveWebhookEndpoint',
      'x-plinth-sdk': { resource: 'webhookEndpoints', method: 'retrieve' },
      tags: TAG,
      summary: 'Retrieve a webhook endpoint',
      params: EndpointIdParams,
      response: { 200: Endpoint },
    },
  }),
  updateWebhookEndpoint: declareWrite({
    method: 'POST',
    path: '/v1/webhook_endpoints/:id',
    permission: needs('webhook_endpoints', 'write'),
    schema: {
      operationId: 'updateWebhookEndpoint',
      'x-plinth-sdk': { resource: 'webhookEndpoints', method: 'update' },
      tags: TAG,
      summary: 'Update a webhook endpoint',
      description: '`status: disabled` stops deliveries (its pending ones fail; retry them later); `enabled` resumes.',
      params: EndpointIdParams,
      body: EndpointUpdateBody,
      response: { 200: Endpoint },
    },
  }),
  deleteWebhookEndpoint: declareWrite({
    method: 'DELETE',
    path: '/v1/webhook_endpoints/:id',
    permission: needs('webhook_endpoints', 'write'),
    schema: {
      operationId: 'deleteWebhookEndpoint',
      'x-plinth-sdk': { resource: 'webhookEndpoints', method: 'delete' },
      tags: TAG,
      summary: 'Delete a webhook endpoint',
      description: 'Deletes the endpoint and its delivery log; nothing more is sent to it.',
      params: EndpointIdParams,
      response: { 200: Ref<{ id: string; object: 'webhook_endpoint'; deleted: true }>('DeletedWebhookEndpoint') },
    },
  }),
  rotateWebhookEndpointSecret: declareWrite({
    method: 'POST',
    path: '/v1/webhook_endpoints/:id/rotate_secret',
    permission: needs('webhook_endpoints', 'write'),
    schema: {
      operationId: 'rotateWebhookEndpointSecret',
      'x-plinth-sdk': { resource: 'webhookEndpoints', method: 'rotateSecret' },
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
    secretFields,
  }),
  testWebhookEndpoint: declareWrite({
    method: 'POST',
    path: '/v1/webhook_endpoints/:id/test',
    permission: needs('webhook_endpoints', 'write'),
    schema: {
      operationId: 'testWebhookEndpoint',
      'x-plinth-sdk': { resource: 'webhookEndpoints', method: 'test' },
      tags: TAG,
      summary: 'Send a test event',
      description: 'Emits a `webhook_endpoint.test` event, delivered to this endpoint only; answers with the event.',
      'x-body-optional': true,
      'x-problems': ['webhook_endpoint_disabled'],
      params: EndpointIdParams,
      body: NoBody,
      response: { 200: Ref<Event>('Event') },
    },
  }),
  listWebhookEndpointDeliveries: declareRead({
    method: 'GET',
    path: '/v1/webhook_endpoints/:id/deliveries',
    permission: needs('webhook_endpoints', 'read'),
    schema: {
      operationId: 'listWebhookEndpointDeliveries',
      'x-plinth-sdk': { resource: 'webhookEndpoints', method: 'listDeliveries' },
      tags: TAG,
      summary: "An endpoint's deliveries, newest first",
      params: EndpointIdParams,
      querystring: EndpointDeliveriesQuery,
      response: { 200: Ref<WebhookDeliveryList>('WebhookDeliveryList') },
    },
  }),
};

/** Webhook endpoints (docs/api.md#webhooks); every POST is one write through withIdempotency. */
export function endpointsRoutes(
  app: FastifyInstance,
  deps: service.EndpointsDeps & { withIdempotency: WithIdempotency },
): void {
  for (const s of [WebhookEndpoint, WebhookEndpointWithSecret, WebhookEndpointList, DeletedWebhookEndpoint])
    app.addSchema(s);
  declareOperations(app, deps, [
    implement(endpointOps.createWebhookEndpoint, {
      check: (owner, input) => service.checkUrl(deps, owner.mode, input.body.url),
      write: (ctx, input) => service.createEndpoint(deps, ctx, input.body),
    }),

    implement(endpointOps.listWebhookEndpoints, {
      read: (owner, input) => service.listEndpoints(deps, owner, input.query),
    }),

    implement(endpointOps.retrieveWebhookEndpoint, {
      read: async (owner, input) => endpointFromRow(await service.findEndpointOrThrow(deps.db, owner, input.params.id)),
    }),

    implement(endpointOps.updateWebhookEndpoint, {
      check: (owner, input) => service.checkUrl(deps, owner.mode, input.body.url),
      write: (ctx, input) => service.updateEndpoint(ctx, input.params.id, input.body),
    }),

    implement(endpointOps.deleteWebhookEndpoint, {
      write: (ctx, input) => service.deleteEndpoint(ctx, input.params.id),
    }),

    implement(endpointOps.rotateWebhookEndpointSecret, {
      write: (ctx, input) => service.rotateSecret(deps, ctx, input.params.id, input.body.expire_previous_in_seconds),
    }),

    implement(endpointOps.testWebhookEndpoint, {
      write: (ctx, input) => service.testEndpoint(deps, ctx, input.params.id),
    }),

    implement(endpointOps.listWebhookEndpointDeliveries, {
      read: (owner, input) => listEndpointDeliveries(deps.db, owner, input.params.id, input.query),
    }),
  ]);
}
