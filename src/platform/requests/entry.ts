import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import { timeOfId } from '../kit/ids.ts';
import { redactedJson, redactSecrets } from '../kit/redact.ts';
import { BODY_MAX_BYTES } from './requests.schema.ts';
import type { RequestLogsTable, RequestSource } from './tables.ts';

const PATH_MAX = 1024;
const IDEMPOTENCY_KEY_MAX = 255;
const DURATION_MAX_US = 2 ** 31 - 1;

// Fastify's `/v1/things/:id` as the OpenAPI document writes it, once per route.
const templates = new Map<string, string>();
function templateOf(url: string): string {
  let template = templates.get(url);
  if (template === undefined) {
    template = url.replace(/:(\w+)/g, '{$1}');
    templates.set(url, template);
  }
  return template;
}

/** The last byte at or before `at` that starts a UTF-8 character (continuation bytes are 0b10xxxxxx). */
function characterStart(bytes: Buffer, at: number): number {
  let i = at;
  while (i > 0 && (bytes[i]! & 0xc0) === 0x80) i--;
  return i;
}

/**
 * A body as the log keeps it: redacted first (so that no cut can leave part of a secret), serialized once, and cut
 * at `BODY_MAX_BYTES` of UTF-8 on a character boundary when longer.
 */
export function loggedBody(body: unknown): { body: string | null; truncated: boolean } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { body: null, truncated: false };
  const text = redactedJson(body as Record<string, unknown>);
  // A UTF-8 character is at most 3 bytes per UTF-16 unit: a short text needs no byte count.
  if (text.length * 3 <= BODY_MAX_BYTES || Buffer.byteLength(text) <= BODY_MAX_BYTES)
    return { body: text, truncated: false };
  const bytes = Buffer.from(text);
  return { body: bytes.toString('utf8', 0, characterStart(bytes, BODY_MAX_BYTES)), truncated: true };
}

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
}

/**
 * One entry for a request that has been answered. Called for every authenticated request, so it only copies what
 * the request already holds: the body was parsed already and is serialized once, only for a POST; the id carries
 * the arrival time.
 */
export function entryOf(request: FastifyRequest, reply: FastifyReply, details: EntryDetails): RequestLogsTable {
  const { principal } = details;
  const url = request.url;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const header = details.idempotencyKey === undefined ? request.headers['idempotency-key'] : details.idempotencyKey;
  const { body, truncated } =
    request.method === 'POST' ? loggedBody(details.body === undefined ? request.body : details.body) : NO_BODY;
  const id = String(request.id);
  return {
    id,
    org_id: principal.orgId,
    mode: principal.mode,
    method: request.method,
    route: templateOf(request.routeOptions.url ?? path),
    path: redactSecrets(path.length > PATH_MAX ? path.slice(0, PATH_MAX) : path),
    status: details.status ?? reply.statusCode,
    error_code: details.errorCode === undefined ? request.errorCode : details.errorCode,
    duration_us: Math.min(Math.round(reply.elapsedTime * 1000), DURATION_MAX_US),
    api_key_id: principal.keyId,
    api_key_hint: principal.keyHint,
    idempotency_key: typeof header === 'string' ? redactSecrets(header.slice(0, IDEMPOTENCY_KEY_MAX)) : null,
    replayed: (details.replayed ?? reply.getHeader('idempotent-replayed') === 'true') ? 1 : 0,
    source: details.source,
    body,
    body_truncated: truncated ? 1 : 0,
    count: null,
    created_at: new Date(timeOfId(id)).toISOString(),
  };
}

const NO_BODY = { body: null, truncated: false };
