import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import { type Decision, type Limit, type RateLimiter, rateLimited } from '../http/rate-limit.ts';
import { authenticate, type KeysDeps } from './api-keys.service.ts';
import { credentialOf } from './credential.ts';
import type { Mode, Principal } from './principal.ts';

export interface AuthDeps extends KeysDeps {
  limiter: RateLimiter;
  /** Per key, by mode. */
  keyLimits: Record<Mode, Limit>;
  /** Failed authentications per client address. */
  authFailureLimit: Limit;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every authenticated route before validation runs. */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Routes under /v1 that take no key (sign-up, the OpenAPI document). */
    public?: boolean;
  }
}

const CHALLENGE = { 'www-authenticate': 'Bearer realm="plinth"' };

function unauthorized(code: 'api_key_missing' | 'api_key_invalid', detail: string): ApiError {
  return new ApiError(code, detail, { param: 'Authorization', headers: CHALLENGE });
}

/** RateLimit and RateLimit-Policy as in draft-ietf-httpapi-ratelimit-headers-09 (one policy, named "default"). */
function setRateLimitHeaders(reply: FastifyReply, limit: Limit, decision: Decision): void {
  reply.header('ratelimit-policy', `"default";q=${limit.burst};w=${Math.max(1, Math.round(limit.burst / limit.rate))}`);
  reply.header('ratelimit', `"default";r=${decision.remaining};t=${decision.resetSeconds}`);
}

/**
 * Every /v1 route authenticates unless it is marked public; unknown and revoked keys look the same. Then the
 * key's rate limit. A failed authentication also takes from the client address's failure budget; past it the
 * answer is 429 instead of 401. Valid keys from that address keep working, so one bad script behind a shared
 * address does not lock its neighbours out.
 */
export function installAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions.url;
    if (url === undefined || !url.startsWith('/v1/') || request.routeOptions.config.public) return;
    const credential = credentialOf(request);
    const principal = credential.kind === 'bearer' ? await authenticate(deps, credential.key) : null;
    if (principal === null) {
      const failures = await deps.limiter.take(`authfail:${request.ip}`, deps.authFailureLimit);
      if (!failures.allowed) throw rateLimited(failures, 'Too many failed authentications from this address.');
      if (credential.kind === 'none')
        throw unauthorized('api_key_missing', 'Send your API key as `Authorization: Bearer <key>`.');
      if (credential.kind === 'unusable') throw unauthorized('api_key_invalid', credential.detail);
      throw unauthorized('api_key_invalid', 'The API key is not valid: unknown, revoked, or mistyped.');
    }
    request.principal = principal;
    const limit = deps.keyLimits[principal.mode];
    const decision = await deps.limiter.take(`key:${principal.keyId}`, limit);
    setRateLimitHeaders(reply, limit, decision);
    if (!decision.allowed) throw rateLimited(decision, `Over this key's limit of ${limit.rate} requests per second.`);
  });
}

/** The principal of an authenticated route; only callable where installAuth has run. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('principalOf called on an unauthenticated route');
  return request.principal;
}
