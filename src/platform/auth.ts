import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, type KeysDeps, type Principal } from './api-keys.service.ts';
import { ApiError } from './errors.ts';

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

/** The Bearer key of the request: undefined when no credential was sent at all. */
function presentedKey(request: FastifyRequest): string | undefined | null {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match ? match[1]! : null;
}

/** Every /v1 route authenticates unless it is marked public; unknown and revoked keys look the same. */
export function installAuth(app: FastifyInstance, deps: KeysDeps): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (url === undefined || !url.startsWith('/v1/') || request.routeOptions.config.public) return;
    const key = presentedKey(request);
    if (key === undefined) throw unauthorized('api_key_missing', 'Send your API key as `Authorization: Bearer <key>`.');
    const principal = key === null ? null : await authenticate(deps, key);
    if (principal === null) throw unauthorized('api_key_invalid', 'The API key is not valid.');
    request.principal = principal;
  });
}

/** The principal of an authenticated route; only callable where installAuth has run. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('principalOf called on an unauthenticated route');
  return request.principal;
}
