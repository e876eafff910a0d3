/**
 * The one error model (CONTRACT §3): a closed list of codes, one code → status table, RFC 9457 bodies.
 * The README's error catalogue, the /docs/errors page and the OpenAPI document are generated from this list.
 */
export const ERROR_CODES = {
  body_malformed: {
    status: 400,
    title: 'Malformed body',
    description:
      'The body is not a JSON object this API accepts: invalid JSON or UTF-8, duplicate or forbidden ' +
      '(`__proto__`, `constructor`) keys, NUL characters, or nesting deeper than 32.',
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
  country_unsupported: {
    status: 400,
    title: 'Country not supported',
    description: 'A real ISO 3166-1 country that this deployment does not serve.',
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
    description: 'The key may not do this, e.g. a sandbox key minting a live key.',
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
  idempotency_request_in_progress: {
    status: 409,
    title: 'Request in progress',
    description: 'A request with the same `Idempotency-Key` is still executing. Retry after it finishes.',
    retryAfterSeconds: 1,
  },
  webhook_endpoint_limit_reached: {
    status: 409,
    title: 'Webhook endpoint limit reached',
    description: 'The organisation already has 16 webhook endpoints of this mode. Delete one first.',
  },
  webhook_endpoint_disabled: {
    status: 409,
    title: 'Webhook endpoint disabled',
    description: 'The webhook endpoint is disabled; enable it (`status: enabled`) before sending to it again.',
  },
  body_too_large: { status: 413, title: 'Body too large', description: 'The body is over 64 KiB.' },
  media_type_unsupported: {
    status: 415,
    title: 'Unsupported media type',
    description: 'Request bodies must be `application/json` (optionally with `charset=utf-8`).',
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
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes that always tell the client when to retry (rate_limited computes its own from the bucket). */
function defaultRetryAfter(code: ErrorCode): Record<string, string> {
  const entry = ERROR_CODES[code];
  return 'retryAfterSeconds' in entry ? { 'retry-after': String(entry.retryAfterSeconds) } : {};
}

export interface ErrorItem {
  code: ErrorCode;
  param?: string;
  detail: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  param?: string;
  errors?: ErrorItem[];
  request_id: string;
}

export function problemType(code: ErrorCode): string {
  return `/docs/errors#${code}`;
}

/** Thrown anywhere; ends in the one error handler, which turns it into an RFC 9457 body. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | undefined;
  readonly errors: ErrorItem[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { param?: string; errors?: ErrorItem[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.param = options.param;
    this.errors = options.errors;
    this.headers = { ...defaultRetryAfter(code), ...options.headers };
  }

  /** Several problems in one request: the first names the error, all are listed. */
  static fromItems(items: [ErrorItem, ...ErrorItem[]]): ApiError {
    const [first] = items;
    return new ApiError(first.code, first.detail, { param: first.param, errors: items });
  }
}

export function toProblem(error: ApiError, requestId: string): Problem {
  const errors =
    error.errors ??
    (error.param === undefined ? undefined : [{ code: error.code, param: error.param, detail: error.message }]);
  return {
    type: problemType(error.code),
    title: ERROR_CODES[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    ...(error.param === undefined ? {} : { param: error.param }),
    ...(errors === undefined ? {} : { errors }),
    request_id: requestId,
  };
}
