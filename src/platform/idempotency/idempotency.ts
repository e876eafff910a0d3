import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Trx } from '../../db/database.ts';
import { principalOf } from '../auth/auth.ts';
import type { Principal } from '../auth/principal.ts';
import { ownerNowInWrite } from '../clock/clock.ts';
import { ApiError, toProblem } from '../http/errors.ts';
import { type Clock, storedTime } from '../kit/time.ts';
import type { EventRequest, WriteContext } from '../operations/context.ts';
import * as repo from './idempotency.repository.ts';
import { fingerprint, keyOf } from './key.ts';

/**
 * Idempotency-Key on every authenticated POST (draft-ietf-httpapi-idempotency-key-header, as Stripe does it), as
 * one explicit step every declared write runs through (operations/operation.ts):
 *
 *   withIdempotency(request, reply, (ctx) => createAccount(deps, ctx, body))
 *
 * It runs the service in one write of the write pipeline, in the write's context (its transaction, the request's
 * principal, the request, the time), and answers with its result, serialized once. With a key,
 * inside that same write and before the service: on PostgreSQL, take the scope's transaction lock (held by another
 * request anywhere → 409 `idempotency_request_in_progress`); then look for the stored response (same request →
 * replayed byte for byte, with its original Request-Id; a different one → 422 `idempotency_key_reused`); else run
 * the service and store its response in the same transaction as whatever it wrote. So the resource and its stored
 * response commit together or not at all, one commit per request, and a refused or failed request (an error thrown
 * anywhere in the write) stores nothing and leaves the key usable.
 */
export type WithIdempotency = <T>(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (ctx: WriteContext<Principal>) => Promise<T>,
  options?: {
    secretFields?: readonly string[];
    /** Awaited once the write committed (or its answer was found), before the answer is sent. */
    after?: () => Promise<void>;
  },
) => Promise<FastifyReply>;

/** Either the work ran (and its answer, or its refusal, was stored with it), or an earlier request's answer was found. */
type Outcome =
  | { ran: true; body: string }
  | { ran: true; refused: ApiError }
  | { ran: false; stored: repo.StoredResponse };

/**
 * Refusals that running the request decided (the account is frozen, the funds are short, the object is not there)
 * are its outcome: a retry with the same key gets the same answer, even if the funds have arrived since (Stripe's
 * rule, and docs/api.md#safe-retries-idempotency-key: only requests refused before they ran, by authentication,
 * permission, validation or the rate limit, and 5xx, are not stored). Validation (400), permission (403
 * `permission_denied`: what the key may do, not what the request did) and concurrency (409 in progress) refusals
 * leave the key unused.
 */
const NOT_STORED: readonly string[] = ['idempotency_request_in_progress', 'permission_denied'];
const isOutcome = (error: unknown): error is ApiError =>
  error instanceof ApiError && [403, 404, 409].includes(error.status) && !NOT_STORED.includes(error.code);

/**
 * Runs the work; a refusal that is an outcome is returned, to be stored in the same write. The work must decide
 * before it writes (every service locks, checks, then writes), so a refusal leaves nothing to undo and no savepoint is
 * needed; a refusal after a write would commit half a request, and is a bug: it fails the whole write instead.
 */
async function runOrRefuse<T>(trx: Trx, work: () => Promise<T>): Promise<{ result: T } | { refused: ApiError }> {
  const before = trx.writeCount();
  try {
    return { result: await work() };
  } catch (error) {
    if (!isOutcome(error)) throw error;
    if (trx.writeCount() !== before) throw new Error(`refused (${error.code}) after writing: decide before writing`);
    return { refused: error };
  }
}

const sendJson = (reply: FastifyReply, body: string) => reply.type('application/json; charset=utf-8').send(body);

function replay(reply: FastifyReply, stored: repo.StoredResponse): FastifyReply {
  reply.code(stored.status).header('request-id', stored.requestId).header('idempotent-replayed', 'true');
  if (stored.status >= 400) {
    reply.request.errorCode = (JSON.parse(stored.body) as { code: string }).code; // a replayed refusal: small, rare
    return reply.header('content-type', 'application/problem+json').send(stored.body);
  }
  return sendJson(reply, stored.body);
}

/** Secrets (a new key, a signing secret) are shown once: the stored copy has them replaced by null. */
function withoutSecrets<T>(result: T, fields: readonly string[]): T {
  return fields.length === 0 ? result : { ...result, ...Object.fromEntries(fields.map((f) => [f, null])) };
}

/**
 * One request as the idempotency step sees it: its key in its owner's scope (the API key, its org and mode) when it
 * sent one, with
 * `fingerprint(method, path, body)` of the API request it is (or stands for); and its request id.
 */
export interface IdempotentRequest {
  keyed: { scope: repo.Scope; fingerprint: string } | undefined;
  /** Whom it acts for, and the request (its id, its Idempotency-Key) its events record. */
  owner: Principal;
  request: EventRequest;
}

/** The work ran (this is its serialized answer), or an earlier request's answer was found under the same key. */
export type IdempotentAnswer = { replayed: false; body: string } | { replayed: true; stored: repo.StoredResponse };

export type IdempotentWrite = <T>(
  call: IdempotentRequest,
  work: (ctx: WriteContext<Principal>) => Promise<T>,
  serialize: (value: T) => string,
  options?: { secretFields?: readonly string[] },
) => Promise<IdempotentAnswer>;

/**
 * The step without HTTP: one write, and with a key the lock, the look-up and the stored answer in it. A refusal the
 * work decided is stored and thrown; a key reused for another request is a 422. The API's `withIdempotency` (below)
 * and the dashboard's actions (which have no JSON reply to send on) both run through this.
 */
export function idempotentWrite(deps: { database: Database; clock: Clock }): IdempotentWrite {
  const { database, clock } = deps;
  // The write's time is its owner's (the sandbox clock in sandbox mode: clock/clock.ts); what the step itself stores
  // (the kept answer) is dated by the real clock. In sandbox mode the write shares its org's clock turn from here on.
  const ownersNow = ownerNowInWrite(clock);
  const contextOf = async (call: IdempotentRequest, trx: Trx) => ({
    trx,
    owner: call.owner,
    request: call.request,
    now: await ownersNow(trx, call.owner),
  });
  return async (call, work, serialize, options = {}) => {
    if (call.keyed === undefined)
      return {
        replayed: false,
        body: serialize(await database.write(async (trx) => work(await contextOf(call, trx)))),
      };
    const { scope, fingerprint: print } = call.keyed;
    const requestId = call.request.id;
    const outcome = await database.write(async (trx): Promise<Outcome> => {
      // The lock, the look-up and the owner's time go out together (one round trip on PostgreSQL): the look-up runs
      // after the lock, and the sandbox clock's read after the write's share of the clock's turn (clock.ts). The time
      // is read whatever the look-up finds, and used only if the work runs.
      const locked = repo.tryLockScope(trx, scope);
      const found = repo.findResponse(trx, scope);
      const now = ownersNow(trx, call.owner);
      now.catch(() => undefined); // a replay or a refusal here does not wait for it; the write's end reports a failure
      const [held, stored] = await Promise.all([locked, found]);
      if (!held) {
        throw new ApiError('idempotency_request_in_progress', 'A request with this Idempotency-Key is still running.', {
          param: 'Idempotency-Key',
        });
      }
      if (stored !== undefined) return { ran: false, stored };
      const ran = await runOrRefuse(trx, async () =>
        work({ trx, owner: call.owner, request: call.request, now: await now }),
      );
      if ('refused' in ran) {
        const problem = JSON.stringify(toProblem(ran.refused, requestId)); // the bytes the error handler will send
        const response = { fingerprint: print, status: ran.refused.status, body: problem, requestId };
        await repo.storeResponse(trx, scope, response, storedTime(clock()));
        return { ran: true, refused: ran.refused };
      }
      const body = serialize(ran.result);
      const kept = options.secretFields ? serialize(withoutSecrets(ran.result, options.secretFields)) : body;
      await repo.storeResponse(
        trx,
        scope,
        { fingerprint: print, status: 200, body: kept, requestId },
        storedTime(clock()),
      );
      return { ran: true, body };
    });
    if ('refused' in outcome) throw outcome.refused;
    if (outcome.ran) return { replayed: false, body: outcome.body };
    if (outcome.stored.fingerprint !== print) {
      throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.', {
        param: 'Idempotency-Key',
      });
    }
    return { replayed: true, stored: outcome.stored };
  };
}

/** The scope of an Idempotency-Key `key` sent by `owner`: its API key (docs/api.md#safe-retries-idempotency-key). */
export const scopeOf = (owner: Principal, key: string): repo.Scope => ({
  orgId: owner.orgId,
  mode: owner.mode,
  keyId: owner.keyId,
  key,
});

/** The API's step: the key from the header, the fingerprint from the request, the answer sent as JSON. */
export function idempotencyStep(write: IdempotentWrite): WithIdempotency {
  return async (request, reply, work, options = {}) => {
    // Idempotency-Key is a POST's (docs/api.md#safe-retries-idempotency-key); a DELETE runs as one write, without it.
    const key = request.method === 'POST' ? keyOf(request) : undefined;
    const owner = principalOf(request);
    const keyed =
      key === undefined
        ? undefined
        : { scope: scopeOf(owner, key), fingerprint: fingerprint(request.method, request.url, request.body) };
    const call = { keyed, owner, request: { id: String(request.id), idempotency_key: key ?? null } };
    const answer = await write(call, work, (v) => String(reply.serialize(v)), options);
    await options.after?.();
    if (answer.replayed) return replay(reply, answer.stored);
    return sendJson(reply, answer.body);
  };
}
