import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { needs } from '../../platform/auth/permissions.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { ListQuery } from '../../platform/http/pagination.ts';
import { type Limit, type RateLimiter, rateLimited } from '../../platform/http/rate-limit.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { refuseIdempotencyKey } from '../../platform/idempotency/key.ts';
import { declarePublic, declareRead, declareWrite, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';
import { ApiKey, ApiKeyCreateBody, ApiKeyList, KeyIdParams, NewApiKey, Signup, SignupBody } from './api-keys.schema.ts';
import {
  createKeyForPrincipal,
  type KeysDeps,
  listKeysForPrincipal,
  retrieveKeyForPrincipal,
  revokeKeyForPrincipal,
  signUp,
} from './api-keys.service.ts';
import { apiKeyFromRow } from './api-keys.view.ts';

export interface KeysRoutesDeps extends KeysDeps {
  withIdempotency: WithIdempotency;
  /** Called once a revocation has committed: this process stops trusting the key at once. */
  forgetKey: (keyId: string) => void;
  limiter: RateLimiter;
  signupLimit: Limit;
  signupEnabled: boolean;
  /** Active keys an org may hold per mode (API_KEYS_PER_ORG). */
  keysPerOrg: number;
}

const ref = <T>(id: string) => Type.Unsafe<T>(Type.Ref(id));

/** API keys' operations, declared at module scope: what the dashboard and the CLI name through `ops` (src/ops.ts). */
export const keyOps = {
  sandboxSignup: declarePublic({
    method: 'POST',
    path: '/v1/sandbox/signup',
    permission: 'public',
    schema: {
      operationId: 'sandboxSignup',
      'x-plinth-sdk': { method: 'signUp' },
      tags: ['API keys'],
      summary: 'Sign up for the sandbox',
      description:
        'Creates an organisation and its first sandbox key, which works on the very next request. No key ' +
        'needed. Limited per client address; a deployment may switch it off (`permission_denied`).',
      security: [],
      'x-body-optional': true,
      'x-problems': ['permission_denied', 'rate_limited'],
      body: SignupBody,
      response: { 200: ref<{ org_id: string; api_key: NewApiKey }>('SandboxSignup') },
    },
  }),
  createApiKey: declareWrite({
    method: 'POST',
    path: '/v1/api_keys',
    permission: needs('api_keys', 'write'),
    schema: {
      operationId: 'createApiKey',
      'x-plinth-sdk': { resource: 'apiKeys', method: 'create' },
      tags: ['API keys'],
      summary: 'Create an API key',
      description:
        "A new key for the caller's organisation, of the caller's mode unless `mode` says otherwise. The " +
        'secret `key` is in this response only.',
      'x-body-optional': true,
      'x-problems': ['permission_denied', 'api_key_limit_reached'],
      body: ApiKeyCreateBody,
      response: { 200: ref<NewApiKey>('NewApiKey') },
    },
    secretFields: ['key'],
  }),
  listApiKeys: declareRead({
    method: 'GET',
    path: '/v1/api_keys',
    permission: needs('api_keys', 'read'),
    schema: {
      operationId: 'listApiKeys',
      'x-plinth-sdk': { resource: 'apiKeys', method: 'list' },
      tags: ['API keys'],
      summary: "List the organisation's keys of the caller's mode",
      querystring: ListQuery('key', 'key'),
      response: { 200: ref<{ object: 'list'; data: ApiKey[]; has_more: boolean }>('ApiKeyList') },
    },
  }),
  retrieveApiKey: declareRead({
    method: 'GET',
    path: '/v1/api_keys/:id',
    permission: needs('api_keys', 'read'),
    schema: {
      operationId: 'retrieveApiKey',
      'x-plinth-sdk': { resource: 'apiKeys', method: 'retrieve' },
      tags: ['API keys'],
      summary: 'Retrieve an API key',
      description: 'One of the organisation’s keys of the caller’s mode, never its secret.',
      params: KeyIdParams,
      response: { 200: ref<ApiKey>('ApiKey') },
    },
  }),
  revokeApiKey: declareWrite({
    method: 'POST',
    path: '/v1/api_keys/:id/revoke',
    permission: needs('api_keys', 'write'),
    schema: {
      operationId: 'revokeApiKey',
      'x-plinth-sdk': { resource: 'apiKeys', method: 'revoke' },
      tags: ['API keys'],
      summary: 'Revoke an API key',
      description:
        'Every process refuses the key from its next request on. Revoking twice is harmless and keeps the ' +
        "first `revoked_at`. The organisation's last active key of a mode cannot be revoked here " +
        '(`api_key_last_active`): create another first. A restricted key revokes only keys within its own ' +
        'permissions (a full key, or a wider one: `permission_denied`).',
      'x-problems': ['api_key_last_active'],
      'x-body-optional': true,
      params: KeyIdParams,
      body: Type.Object({}, { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] }),
      response: { 200: ref<ApiKey>('ApiKey') },
    },
  }),
};

/** The sandbox sign-up and the key management API (docs/api.md#keys-and-the-sandbox); the CLI uses the same service. */
export function apiKeysRoutes(app: FastifyInstance, deps: KeysRoutesDeps): void {
  for (const schema of [ApiKey, NewApiKey, ApiKeyList, Signup]) app.addSchema(schema);
  declareOperations(app, deps, [
    implement(keyOps.sandboxSignup, {
      handle: async (request, input) => {
        refuseIdempotencyKey(request);
        if (!deps.signupEnabled)
          throw new ApiError('permission_denied', 'Sandbox sign-up is switched off on this deployment.');
        const decision = await deps.limiter.take(`signup:${request.ip}`, deps.signupLimit);
        if (!decision.allowed) throw rateLimited(decision, 'Too many sign-ups from this address.');
        return signUp(deps, input.body?.name, { id: String(request.id), idempotency_key: null });
      },
    }),

    implement(keyOps.createApiKey, {
      write: (ctx, input) => createKeyForPrincipal(deps, ctx, input.body ?? {}, deps.keysPerOrg),
    }),

    implement(keyOps.listApiKeys, {
      read: async (owner, input) => {
        const page = await listKeysForPrincipal(deps, owner, input.query);
        return { object: 'list' as const, data: page.rows.map(apiKeyFromRow), has_more: page.hasMore };
      },
    }),

    implement(keyOps.retrieveApiKey, {
      read: (owner, input) => retrieveKeyForPrincipal(deps, owner, input.params.id),
    }),

    implement(keyOps.revokeApiKey, {
      write: (ctx, input) => revokeKeyForPrincipal(deps, ctx, input.params.id),
      settled: (input) => deps.forgetKey(input.params.id),
    }),
  ]);
}
