import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import { beforeCommit, type Trx } from '../../db/write.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../keys/principal.ts';
import { type Clock, storedTime } from '../kit/time.ts';
import * as repo from './idempotency.repository.ts';

/**
 * Idempotency-Key on every authenticated POST (CONTRACT §5, draft-ietf-httpapi-idempotency-key-header).
 *
 * 1. After authentication, rate limiting and validation, the request claims (org, mode, key) with one atomic
 *    insert. A claim already there answers instead: a stored response is replayed byte for byte, a different
 *    request is 422, a claim still held is 409 (on every process: the claim is a committed row).
 * 2. The handler runs. Its write transaction (runWrite) stores the serialized response on the claim before it
 *    commits, so the resource and its stored response exist together or not at all.
 * 3. A request that wrote nothing (refused by the service, or failed) releases its claim before answering:
 *    the key stays usable. A claim whose process died is taken over once it is older than the lock timeout.
 */
export interface IdempotencyDeps {
  db: Db;
  clock: Clock;
  lockTimeoutMs: number;
}

const HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

interface Claim {
  scope: repo.Scope;
  requestId: string;
  /** The bytes committed with the resource; also exactly what is sent. */
  body: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
  }
}

/** Canonical JSON: object keys sorted at every depth, no whitespace; equal bodies give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${path}\n${canonicalJson(body ?? {})}`)
    .digest('hex');
}

function replay(reply: FastifyReply, row: repo.StoredResponse): FastifyReply {
  return reply
    .code(row.response_status)
    .header('request-id', row.request_id)
    .header('idempotent-replayed', 'true')
    .type('application/json; charset=utf-8')
    .send(row.response_body);
}

async function claim(
  deps: IdempotencyDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  key: string,
): Promise<Claim | FastifyReply> {
  const scope: repo.Scope = { orgId: principal.orgId, mode: principal.mode, key };
  const print = fingerprint(request.method, request.url, request.body);
  const now = deps.clock();
  const requestId = String(request.id);
  if (await repo.tryClaim(deps.db, scope, print, requestId, storedTime(now))) return { scope, requestId, body: null };
  const existing = await repo.findClaim(deps.db, scope);
  if (existing === undefined) {
    // Purged between our insert and our read: a fresh claim is the right answer; retrying once settles it.
    if (await repo.tryClaim(deps.db, scope, print, requestId, storedTime(now))) return { scope, requestId, body: null };
    throw new ApiError('idempotency_request_in_progress', 'A request with this Idempotency-Key is in progress.', {
      param: 'Idempotency-Key',
    });
  }
  if (existing.fingerprint !== print) {
    throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.', {
      param: 'Idempotency-Key',
    });
  }
  if (existing.response_status !== null && existing.response_body !== null) {
    return replay(reply, {
      response_status: existing.response_status,
      response_body: existing.response_body,
      request_id: existing.request_id,
    });
  }
  const abandoned = now.getTime() - Date.parse(existing.locked_at) > deps.lockTimeoutMs;
  if (abandoned && (await repo.takeOver(deps.db, scope, existing.request_id, requestId, storedTime(now))))
    return { scope, requestId, body: null };
  throw new ApiError(
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still in progress; retry when it has finished.',
    { param: 'Idempotency-Key' },
  );
}

export function installIdempotency(app: FastifyInstance, deps: IdempotencyDeps): void {
  app.decorateRequest('idempotencyClaim', null);

  // Only authenticated POSTs: a public POST has no owner to scope a key to, and a replay could hand its
  // response (a sign-up's secret key) to whoever guessed the key.
  const applies = (request: FastifyRequest) => request.method === 'POST' && request.principal !== null;

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers[HEADER];
    // GET and HEAD are idempotent already (CONTRACT §5): the header is ignored there, whatever its value.
    if (key === undefined || request.method !== 'POST') return;
    if (!applies(request))
      throw new ApiError('parameter_unknown', 'This operation does not take an Idempotency-Key.', {
        param: 'Idempotency-Key',
      });
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw new ApiError('parameter_invalid', 'Idempotency-Key must be 1–255 visible ASCII characters.', {
        param: 'Idempotency-Key',
      });
    }
    const outcome = await claim(deps, request, reply, request.principal!, key);
    if ('scope' in outcome) request.idempotencyClaim = outcome;
    else return outcome;
  });

  // The handler runs with a commit hook that stores its response inside its own write transaction.
  app.addHook('onRoute', (route) => {
    if (route.method !== 'POST') return;
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const held = request.idempotencyClaim;
      if (held === null) return handler.call(this, request, reply);
      return beforeCommit.run(
        async (trx: Trx, result: unknown) => {
          if (held.body !== null) throw new Error('one idempotent request committed twice');
          const body = reply.serialize(result) as string;
          if (!(await repo.storeResponse(trx, held.scope, held.requestId, 200, body))) {
            // Our claim was taken over (we outlived the lock timeout): roll back rather than create twice.
            throw new ApiError(
              'idempotency_request_in_progress',
              'A request with this Idempotency-Key is in progress.',
              { param: 'Idempotency-Key' },
            );
          }
          held.body = body;
        },
        () => handler.call(this, request, reply),
      );
    } as typeof route.handler;
  });

  // Send exactly the stored bytes; or, when nothing was stored, release the claim before answering.
  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotencyClaim;
    if (held === null) return payload;
    if (held.body !== null && reply.statusCode === 200) return held.body;
    await repo.releaseClaim(deps.db, held.scope, held.requestId);
    return payload;
  });
}

/**
 * Deletes keys older than `ttlMs`, in batches of `batch` rows, each its own short statement, yielding to requests
 * between batches; at most `maxBatches` per run, so one run is bounded however large the backlog.
 */
export async function purgeExpired(
  db: Db,
  clock: Clock,
  ttlMs: number,
  batch = 500,
  maxBatches = 100,
): Promise<number> {
  const cutoff = storedTime(new Date(clock().getTime() - ttlMs));
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const deleted = await repo.deleteOlderThan(db, cutoff, batch);
    total += deleted;
    if (deleted < batch) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}

/** Runs purgeExpired every `intervalMs`; returns the function that stops it. */
export function startPurge(
  db: Db,
  clock: Clock,
  ttlMs: number,
  intervalMs: number,
  log: FastifyBaseLogger,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(db, clock, ttlMs)
      .then((n) => n > 0 && log.info({ purged: n }, 'idempotency keys purged'))
      .catch((error: unknown) => log.warn({ err: error }, 'idempotency purge failed; will retry'))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
