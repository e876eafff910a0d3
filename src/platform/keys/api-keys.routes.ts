import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requestOf } from '../events/emit.ts';
import { ApiError } from '../http/errors.ts';
import { ListQuery } from '../http/pagination.ts';
import { type Limit, type RateLimiter, rateLimited } from '../http/rate-limit.ts';
import type { WithIdempotency } from '../idempotency/idempotency.ts';
import { refuseIdempotencyKey } from '../idempotency/key.ts';
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
import { principalOf } from './auth.ts';

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

/** The sandbox sign-up and the key management API (CONTRACT §7); the CLI uses the same service. */
export function apiKeysRoutes(app: FastifyInstance, deps: KeysRoutesDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const schema of [ApiKey, NewApiKey, ApiKeyList, Signup]) app.addSchema(schema);

  r.post(
    '/v1/sandbox/signup',
    {
      config: { public: true },
      schema: {
        operationId: 'sandboxSignup',
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
    },
    async (request) => {
      refuseIdempotencyKey(request);
      if (!deps.signupEnabled)
        throw new ApiError('permission_denied', 'Sandbox sign-up is switched off on this deployment.');
      const decision = await deps.limiter.take(`signup:${request.ip}`, deps.signupLimit);
      if (!decision.allowed) throw rateLimited(decision, 'Too many sign-ups from this address.');
      return signUp(deps, request.body.name, requestOf(request));
    },
  );

  r.post(
    '/v1/api_keys',
    {
      schema: {
        operationId: 'createApiKey',
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
    },
    (request, reply) =>
      deps.withIdempotency(
        request,
        reply,
        (trx) =>
          createKeyForPrincipal(deps, trx, principalOf(request), request.body, deps.keysPerOrg, requestOf(request)),
        { secretFields: ['key'] },
      ),
  );

  r.get(
    '/v1/api_keys',
    {
      schema: {
        operationId: 'listApiKeys',
        tags: ['API keys'],
        summary: "List the organisation's keys of the caller's mode",
        querystring: ListQuery('key', 'key'),
        response: { 200: ref<{ object: 'list'; data: ApiKey[]; has_more: boolean }>('ApiKeyList') },
      },
    },
    async (request) => {
      const page = await listKeysForPrincipal(deps, principalOf(request), request.query);
      return { object: 'list' as const, data: page.rows.map(apiKeyFromRow), has_more: page.hasMore };
    },
  );

  r.get(
    '/v1/api_keys/:id',
    {
      schema: {
        operationId: 'retrieveApiKey',
        tags: ['API keys'],
        summary: 'Retrieve an API key',
        description: 'One of the organisation’s keys of the caller’s mode, never its secret.',
        params: KeyIdParams,
        response: { 200: ref<ApiKey>('ApiKey') },
      },
    },
    (request) => retrieveKeyForPrincipal(deps, principalOf(request), request.params.id),
  );

  r.post(
    '/v1/api_keys/:id/revoke',
    {
      schema: {
        operationId: 'revokeApiKey',
        tags: ['API keys'],
        summary: 'Revoke an API key',
        description:
          'Every process refuses the key from its next request on. Revoking twice is harmless and keeps the ' +
          "first `revoked_at`. The organisation's last active key of a mode cannot be revoked here " +
          '(`api_key_last_active`): create another first.',
        'x-problems': ['api_key_last_active'],
        'x-body-optional': true,
        params: KeyIdParams,
        body: Type.Object({}, { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] }),
        response: { 200: ref<ApiKey>('ApiKey') },
      },
    },
    (request, reply) =>
      deps
        .withIdempotency(request, reply, (trx) =>
          revokeKeyForPrincipal(deps, trx, principalOf(request), request.params.id, requestOf(request)),
        )
        .finally(() => deps.forgetKey(request.params.id)),
  );
}
