import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../platform/auth/principal.ts';
import { routeOf } from '../../platform/http/route-of.ts';
import { timeOfId } from '../../platform/kit/ids.ts';
import { redactedJson, redactQuery, redactSecrets } from '../../platform/kit/redact.ts';
import { cutText, loggedAnswer } from './answer.ts';
import type { RequestLogsTable, RequestSource } from './tables.ts';

const PATH_MAX = 1024;
const IDEMPOTENCY_KEY_MAX = 255;
const DURATION_MAX_US = 2 ** 31 - 1;

// Fastify's `/v1/things/:id` as the OpenAPI document writes it, once per route.
const templates = new Map<string, string>();
export function templateOf(url: string): string {
  let template = templates.get(url);
  if (template === undefined) {
    template = url.replace(/:(\w+)/g, '{$1}');
    templates.set(url, template);
  }
  return template;
}

/**
 * A body as the log keeps it: redacted first (so that no cut can leave part of a secret), serialized once, and cut
 * at `BODY_MAX_BYTES` of UTF-8 on a character boundary when longer.
 */
export function loggedBody(body: unknown): { body: string | null; truncated: boolean } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { body: null, truncated: false };
  const text = redactedJson(body as Record<string, unknown>);
  const kept = cutText(text);
  return { body: kept.text, truncated: kept.truncated };
}

/** A query string as the log keeps it: redacted as a body is, then cut at 8 KiB (nothing of a secret is left to cut). */
const loggedQuery = (query: string) => cutText(redactQuery(query)).text;

/**
 * Whether an entry keeps the answer's body: a write's or a failure's is what happened; a successful read's
 * (`GET`, `HEAD`) is not kept, it can be read again (docs/api.md#the-request-log), so a read's entry costs no copy of
 * what it read.
 */
export const keepsAnswer = (method: string, status: number): boolean =>
  status >= 400 || (method !== 'GET' && method !== 'HEAD');

/** What the caller decides about an entry; the rest comes from the request and its reply. */
export interface EntryDetails {
  source: RequestSource;
  principal: Principal;
  /** The answer's status; by default the reply's. */
  status?: number;
  /** The problem code; by default the one the reply was sent with (see `sendProblem`). */
  errorCode?: string | null;
  /** The parsed JSON body to keep (POST only); by default the request's. */
  body?: unknown;
  /** By default the request's `Idempotency-Key` header. */
  idempotencyKey?: string | null;
  /** By default whether the reply says `Idempotent-Replayed: true`. */
  replayed?: boolean;
  /** The answer's body: by default the JSON text the reply sent (`request.answered`); an object for an action. */
  response?: unknown;
  /** The route's URL as Fastify registered it (`/v1/things/:id`), when the caller has read it already. */
  routeUrl?: string;
  /** The API operation the entry is recorded under; by default the request's own method, route and path. */
  operation?: { method: string; route: string; path: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON text a /v1 request was answered with, kept for its log entry (install.ts); else null. */
    answered: string | null;
  }
}

/**
 * One entry for a request that has been answered. Called for every authenticated request, so it only copies what
 * the request already holds: the body was parsed already and is serialized once, only for a POST; the id carries
 * the arrival time.
 */
export function entryOf(request: FastifyRequest, reply: FastifyReply, details: EntryDetails): RequestLogsTable {
  const { principal, operation } = details;
  const url = request.url;
  const query = url.indexOf('?');
  const path = operation?.path ?? (query === -1 ? url : url.slice(0, query));
  const method = operation?.method ?? request.method;
  const status = details.status ?? reply.statusCode;
  const header = details.idempotencyKey === undefined ? request.headers['idempotency-key'] : details.idempotencyKey;
  const { body, truncated } =
    method === 'POST' ? loggedBody(details.body === undefined ? request.body : details.body) : NO_BODY;
  const answer = keepsAnswer(method, status) ? loggedAnswer(details.response ?? request.answered, status) : NO_ANSWER;
  const id = String(request.id);
  return {
    id,
    org_id: principal.orgId,
    mode: principal.mode,
    method,
    route: operation?.route ?? templateOf(details.routeUrl ?? routeOf(request).url ?? path),
    path: redactSecrets(path.length > PATH_MAX ? path.slice(0, PATH_MAX) : path),
    query: operation === undefined && query !== -1 && query < url.length - 1 ? loggedQuery(url.slice(query + 1)) : null,
    status,
    error_code: details.errorCode === undefined ? request.errorCode : details.errorCode,
    duration_us: Math.min(Math.round(reply.elapsedTime * 1000), DURATION_MAX_US),
    api_key_id: principal.keyId,
    api_key_hint: principal.keyHint,
    idempotency_key: typeof header === 'string' ? redactSecrets(header.slice(0, IDEMPOTENCY_KEY_MAX)) : null,
    replayed: (details.replayed ?? reply.getHeader('idempotent-replayed') === 'true') ? 1 : 0,
    source: details.source,
    body,
    body_truncated: truncated ? 1 : 0,
    // Named one by one, not spread: every entry is then built with one shape, in one allocation.
    response_body: answer.response_body,
    response_truncated: answer.response_truncated,
    error_detail: answer.error_detail,
    error_param: answer.error_param,
    count: null,
    created_at: new Date(timeOfId(id)).toISOString(),
  };
}

const NO_BODY = { body: null, truncated: false };
const NO_ANSWER = loggedAnswer(null, 0);
