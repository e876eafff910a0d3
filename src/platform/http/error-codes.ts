/**
 * The one error model's closed list of codes (docs/api.md#errors), one code → status. The core's codes are here;
 * each module declares its own (`Module.errors`, e.g. products/fintech/errors.ts), and src/modules.ts assembles the
 * one list the app serves with `errorCatalogue`. The README's error catalogue, the /docs/errors page and the
 * OpenAPI document are generated from that list or tested against it.
 */
export interface ErrorEntry {
  status: number;
  title: string;
  description: string;
  /** Seconds in the `Retry-After` every answer with this code carries. */
  retryAfterSeconds?: number;
}

export type ErrorTable = Readonly<Record<string, ErrorEntry>>;

/** The request pipeline's codes: the wire, authentication, keys, idempotency, the server's own state. */
export const PLATFORM_ERRORS = {
  body_malformed: {
    status: 400,
    title: 'Malformed body',
    description:
      'The body is not a JSON object this API accepts: invalid JSON or UTF-8, duplicate or forbidden ' +
      '(`__proto__`, `constructor`) keys, NUL characters, or nesting deeper than 32.',
  },
  request_malformed: {
    status: 400,
    title: 'Malformed request',
    description:
      'The request is not valid HTTP/1.1: a malformed request line, an unknown method, no `Host`, or a ' +
      'duplicate or conflicting `Content-Length`/`Transfer-Encoding`. The connection is closed.',
  },
  parameter_missing: {
    status: 400,
    title: 'Missing parameter',
    description: 'A required field is absent. `param` names it.',
  },
  parameter_invalid: {
    status: 400,
    title: 'Invalid parameter',
    description: 'A field or header has the wrong type, format or value. `param` names it.',
  },
  parameter_unknown: {
    status: 400,
    title: 'Unknown parameter',
    description: 'A field the operation does not define, at any depth. `param` names it.',
  },
  api_key_missing: {
    status: 401,
    title: 'API key missing',
    description: 'No credential was sent. Send `Authorization: Bearer <API key>`.',
  },
  api_key_invalid: {
    status: 401,
    title: 'API key invalid',
    description: 'The credential is not a usable key: wrong scheme, malformed, bad checksum, unknown or revoked.',
  },
  permission_denied: {
    status: 403,
    title: 'Permission denied',
    description:
      'The key may not do this, e.g. a sandbox key minting a live key, or a restricted key revoking a key wider ' +
      'than itself. Never stored for an Idempotency-Key: a corrected request may use the same value.',
  },
  resource_not_found: {
    status: 404,
    title: 'Resource not found',
    description:
      'No object with this id is visible to this key. Objects of other organisations and of the other mode are ' +
      'indistinguishable from ids that never existed.',
  },
  route_not_found: { status: 404, title: 'Route not found', description: 'No route has this path.' },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    description: 'The path exists but not with this method. The `Allow` header lists the methods it has.',
  },
  request_timeout: {
    status: 408,
    title: 'Request timeout',
    description: 'The headers or the body did not arrive within `REQUEST_TIMEOUT_SECONDS`. The connection is closed.',
  },
  idempotency_request_in_progress: {
    status: 409,
    title: 'Request in progress',
    description: 'A request with the same `Idempotency-Key` is still executing. Retry after it finishes.',
    retryAfterSeconds: 1,
  },
  api_key_limit_reached: {
    status: 409,
    title: 'API key limit reached',
    description:
      'The organisation already has the most active keys of this mode (`API_KEYS_PER_ORG`). Revoke one first.',
  },
  api_key_last_active: {
    status: 409,
    title: 'Last active API key',
    description:
      'Revoking this key would leave the organisation with no active key of its mode. Create another key first.',
  },
  body_too_large: { status: 413, title: 'Body too large', description: 'The body is over 64 KiB.' },
  media_type_unsupported: {
    status: 415,
    title: 'Unsupported media type',
    description: 'Request bodies must be `application/json` (optionally with `charset=utf-8`).',
  },
  expectation_unsupported: {
    status: 417,
    title: 'Expectation unsupported',
    description: 'The `Expect` header asks for something other than `100-continue`; leave it out.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused',
    description: 'The `Idempotency-Key` was already used with a different request.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limited',
    description: 'Too many requests. Wait the number of seconds in `Retry-After`.',
  },
  headers_too_large: {
    status: 431,
    title: 'Headers too large',
    description: 'The request headers are over 16 KiB. The connection is closed.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    description: 'Something went wrong on our side. Nothing about it is disclosed; quote the `request_id` to support.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    description: 'The database is unreachable or the server is shutting down. Retry later.',
    retryAfterSeconds: 1,
  },
} as const satisfies ErrorTable;

/**
 * Every registered module's codes, by module name: filled by declaration merging from src/modules.ts (the registry),
 * so that `ErrorCode` names a module's codes when the module is registered, and the core imports no module. Empty
 * here on purpose, as db/tables.ts's `Tables` is.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging from the registry
export interface ModuleErrors {}

type ModuleErrorCode = { [M in keyof ModuleErrors]: Extract<keyof ModuleErrors[M], string> }[keyof ModuleErrors];

/** Every code an `ApiError` may carry: checked where it is thrown. */
export type ErrorCode = keyof typeof PLATFORM_ERRORS | ModuleErrorCode;

export type ErrorCatalogue = Readonly<Record<ErrorCode, ErrorEntry>>;

/**
 * The one closed list: the core's codes, then each module's in registry order, ordered by status (a stable sort, so
 * that within one status that order stays). The order is the catalogue's and the problem schema's enum's; a code
 * declared twice is refused at start-up.
 */
export function errorCatalogue(modules: readonly ErrorTable[]): ErrorCatalogue {
  const entries: [string, ErrorEntry][] = [];
  const seen = new Set<string>();
  for (const table of [PLATFORM_ERRORS, ...modules])
    for (const [code, entry] of Object.entries(table)) {
      if (seen.has(code)) throw new Error(`error code ${code} is declared twice`);
      seen.add(code);
      entries.push([code, entry]);
    }
  entries.sort(([, a], [, b]) => a.status - b.status);
  return Object.fromEntries(entries) as ErrorCatalogue;
}
