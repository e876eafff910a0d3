import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import { type Decision, type Limit, type RateLimiter, rateLimited } from '../http/rate-limit.ts';
import { routeOf } from '../http/route-of.ts';
import { type Credential, credentialOf } from './credential.ts';
import type { Mode, Principal } from './principal.ts';
import type { KeyUsage } from './usage.ts';

export interface AuthDeps {
  /** Verifies a presented key (see verify.ts). */
  verify: (presented: string) => Promise<Principal | null>;
  /** `verify`'s answer when it needs no look-up (a key verified within the second), else undefined (verify.ts). */
  known?: (presented: string) => Principal | undefined;
  limiter: RateLimiter;
  /** Per key, by mode. */
  keyLimits: Record<Mode, Limit>;
  /** Failed authentications per client address. */
  authFailureLimit: Limit;
  /** Each org's budget per mode is this many times the per-key limit, shared by all its keys of that mode. */
  orgMultiple: number;
  usage: KeyUsage;
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
  // A callback hook, not an async one: a key verified within the second and an in-process limiter (almost every
  // request) are answered without a promise; anything else takes the same steps, awaited.
  app.addHook('onRequest', (request, reply, done) => {
    const { url, config } = routeOf(request);
    if (url === undefined || !url.startsWith('/v1/') || config?.public) return done();
    const credential = credentialOf(request);
    const known = credential.kind === 'bearer' ? deps.known?.(credential.key) : undefined;
    const takeNow = deps.limiter.takeAllNow;
    if (known === undefined || takeNow === undefined) {
      authenticate(deps, request, reply, credential).then(() => done(), done);
      return;
    }
    admit(deps, request, known);
    const made = bucketsOf(deps, known);
    budgetsDecided(reply, known, made, takeNow(made.buckets));
    done();
  });
}

async function authenticate(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply, credential: Credential) {
  const principal = credential.kind === 'bearer' ? await deps.verify(credential.key) : null;
  if (principal === null) {
    await takeAuthFailure(deps, request.ip);
    if (credential.kind === 'none')
      throw unauthorized('api_key_missing', 'Send your API key as `Authorization: Bearer <key>`.');
    if (credential.kind === 'unusable') throw unauthorized('api_key_invalid', credential.detail);
    throw unauthorized('api_key_invalid', 'The API key is not valid: unknown, revoked, or mistyped.');
  }
  admit(deps, request, principal);
  await takeBudgets(deps, principal, reply);
}

function admit(deps: AuthDeps, request: FastifyRequest, principal: Principal): void {
  request.principal = principal;
  deps.usage.record(principal.keyId, Date.now());
}

/**
 * A failed authentication takes one from the client address's failure budget; past it, 429. The dashboard's sign-in
 * counts its failures here too, in the same buckets.
 */
export async function takeAuthFailure(deps: Pick<AuthDeps, 'limiter' | 'authFailureLimit'>, ip: string) {
  const failures = await deps.limiter.take(`authfail:${ip}`, deps.authFailureLimit);
  if (!failures.allowed) throw rateLimited(failures, 'Too many failed authentications from this address.');
}

/** A principal's two buckets and their limits, made once per verified principal (a cached key's is reused). */
interface Budgets {
  deps: object;
  keyLimit: Limit;
  orgLimit: Limit;
  buckets: { key: string; limit: Limit }[];
}
const budgets = new WeakMap<Principal, Budgets>();

function bucketsOf(deps: Pick<AuthDeps, 'keyLimits' | 'orgMultiple'>, principal: Principal): Budgets {
  const made = budgets.get(principal);
  if (made !== undefined && made.deps === deps) return made;
  const keyLimit = deps.keyLimits[principal.mode];
  const orgLimit = { rate: keyLimit.rate * deps.orgMultiple, burst: keyLimit.burst * deps.orgMultiple };
  const buckets = [
    { key: `key:${principal.keyId}`, limit: keyLimit },
    { key: `org:${principal.orgId}:${principal.mode}`, limit: orgLimit },
  ];
  const fresh = { deps, keyLimit, orgLimit, buckets };
  budgets.set(principal, fresh);
  return fresh;
}

/**
 * The key's own budget, then its org's for this mode, so that minting keys cannot multiply throughput. A request
 * the key's budget refuses does not touch the org's. The headers report whichever budget is nearer to empty. The
 * dashboard takes every request of a session from the same budgets.
 */
export async function takeBudgets(
  deps: Pick<AuthDeps, 'limiter' | 'keyLimits' | 'orgMultiple'>,
  principal: Principal,
  reply: FastifyReply,
): Promise<void> {
  const made = bucketsOf(deps, principal);
  budgetsDecided(reply, principal, made, await deps.limiter.takeAll(made.buckets));
}

/** The limiter's decisions on a principal's buckets: the headers, and a 429 when either refused. */
function budgetsDecided(reply: FastifyReply, principal: Principal, made: Budgets, decisions: Decision[]): void {
  const { keyLimit, orgLimit } = made;
  const [keyDecision, orgDecision] = decisions;
  if (!keyDecision!.allowed) {
    setRateLimitHeaders(reply, keyLimit, keyDecision!);
    throw rateLimited(keyDecision!, `Over this key's limit of ${keyLimit.rate} requests per second.`);
  }
  const orgNearer = !orgDecision!.allowed || orgDecision!.remaining < keyDecision!.remaining;
  setRateLimitHeaders(reply, orgNearer ? orgLimit : keyLimit, orgNearer ? orgDecision! : keyDecision!);
  if (!orgDecision!.allowed) {
    throw rateLimited(
      orgDecision!,
      `Over this organisation's limit of ${orgLimit.rate} requests per second across its ${principal.mode} keys.`,
    );
  }
}

/** The principal of an authenticated route; only callable where installAuth has run. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('principalOf called on an unauthenticated route');
  return request.principal;
}
