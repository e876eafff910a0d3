/**
 * The one error model (docs/api.md#errors): a closed list of codes, one code → status table, RFC 9457 bodies.
 * The README's error catalogue, the /docs/errors page and the OpenAPI document are generated from this list.
 */
import { type IdKind, notFoundDetail } from '../kit/ids.ts';
import { redactSecrets } from '../kit/redact.ts';
import { type ErrorCatalogue, type ErrorCode, type ErrorEntry, errorCatalogue } from './error-codes.ts';

export type { ErrorCatalogue, ErrorCode, ErrorEntry };

// The platform's own codes until the registry hands over the whole list (`useErrorCatalogue`, at start-up).
let catalogue: ErrorCatalogue = errorCatalogue([]);

/** Takes the one closed list, the platform's codes and every registered module's (src/modules.ts). */
export function useErrorCatalogue(codes: ErrorCatalogue): void {
  catalogue = codes;
}

/** The closed list in use, in catalogue order. */
export function errorCodes(): ErrorCatalogue {
  return catalogue;
}

/** A code's status, title and description. A code of a product that was not registered is a programming error. */
export function errorEntry(code: ErrorCode): ErrorEntry {
  const entry = catalogue[code];
  if (entry === undefined) throw new Error(`error code ${code} is not registered (see src/modules.ts)`);
  return entry;
}

/** Codes that always tell the client when to retry (rate_limited computes its own from the bucket). */
function defaultRetryAfter(entry: ErrorEntry): Record<string, string> {
  return entry.retryAfterSeconds === undefined ? {} : { 'retry-after': String(entry.retryAfterSeconds) };
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
  /** The detail's numbers are the server's own (amounts, balances): secret shapes' loose forms are not looked for. */
  readonly ownNumbers: boolean;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { param?: string; errors?: ErrorItem[]; headers?: Record<string, string>; ownNumbers?: boolean } = {},
  ) {
    super(detail);
    const entry = errorEntry(code);
    this.name = 'ApiError';
    this.code = code;
    this.status = entry.status;
    this.param = options.param;
    this.errors = options.errors;
    this.headers = { ...defaultRetryAfter(entry), ...options.headers };
    this.ownNumbers = options.ownNumbers ?? false;
  }

  /** Several problems in one request: the first names the error, all are listed. */
  static fromItems(items: [ErrorItem, ...ErrorItem[]]): ApiError {
    const [first] = items;
    return new ApiError(first.code, first.detail, { param: first.param, errors: items });
  }
}

/**
 * The problem body. Details and params can echo what the client sent, so secret-shaped text in them (a key, a
 * product's registered shapes) is redacted here, once, whichever code built the error.
 */
export function toProblem(error: ApiError, requestId: string): Problem {
  const param = error.param === undefined ? undefined : redactSecrets(error.param);
  const detail = redactSecrets(error.message, { ownNumbers: error.ownNumbers });
  const errors =
    error.errors?.map((e) => ({
      ...e,
      detail: redactSecrets(e.detail),
      ...(e.param === undefined ? {} : { param: redactSecrets(e.param) }),
    })) ?? (param === undefined ? undefined : [{ code: error.code, param, detail }]);
  return {
    type: problemType(error.code),
    title: errorEntry(error.code).title,
    status: error.status,
    detail,
    code: error.code,
    ...(param === undefined ? {} : { param }),
    ...(errors === undefined ? {} : { errors }),
    request_id: requestId,
  };
}

/**
 * The one 404 for an object the caller cannot see (docs/api.md#authentication-and-modes): the same body whether it
 * never existed or belongs to another organisation or mode (see `notFoundDetail`).
 */
export function notFound(kind: IdKind, id: string, param = 'id'): ApiError {
  return new ApiError('resource_not_found', notFoundDetail(`No such ${kind.noun}`, kind.prefix, id), { param });
}
