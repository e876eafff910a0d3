/**
 * What every typed method shares: running one generated call (refusals and transport failures become PlinthError,
 * a success keeps its `Request-Id` and whether it was an idempotent replay), and the secrets a create answers with.
 */
import { type ApiResponse, FetchError, ResponseError } from '../generated/index.js';
import { PlinthError } from './errors.js';

/**
 * What a call returns: the decoded object, plus the `Request-Id` of the response that carried it and whether that
 * response was the stored answer of an earlier request with the same `Idempotency-Key` (`Idempotent-Replayed`).
 * Both are non-enumerable: the object still compares and serialises as exactly what the server sent.
 */
export type WithRequestId<T> = T & { readonly requestId: string; readonly replayed: boolean };

/** Runs one generated call for a resource; `seen` records the Request-Id on the client. */
export type Call = <T>(run: () => Promise<ApiResponse<T>>) => Promise<WithRequestId<T>>;

export async function settle<T>(
  call: () => Promise<ApiResponse<T>>,
  seen: (requestId: string) => void,
): Promise<WithRequestId<T>> {
  let response: ApiResponse<T>;
  try {
    response = await call();
  } catch (error) {
    if (error instanceof ResponseError) throw await PlinthError.fromResponse(error.response);
    if (error instanceof FetchError && error.cause instanceof PlinthError) throw error.cause;
    if (error instanceof PlinthError) throw error;
    throw new PlinthError({ status: 0, code: 'connection_failed', detail: String(error), cause: error });
  }
  const requestId = response.raw.headers.get('request-id') ?? '';
  seen(requestId);
  const value = await response.value();
  Object.defineProperties(value, {
    requestId: { value: requestId, enumerable: false },
    replayed: { value: response.raw.headers.get('idempotent-replayed') === 'true', enumerable: false },
  });
  return value as WithRequestId<T>;
}

/**
 * Reading a secret (an API key's `key`, a webhook endpoint's `secret`) of an idempotent replay: the server never
 * stores a secret, so the replayed answer carries `null` where the first one carried it. Keep the secret from the
 * first answer; `replayed` on the result says which one you hold.
 */
export class ReplayedSecretError extends Error {
  /** `key` or `secret`. */
  readonly field: string;
  readonly requestId: string;
  constructor(field: string, requestId: string) {
    super(
      `the ${field} is shown only in the first answer: this one (${requestId}) is the idempotent replay of an ` +
        'earlier request with the same Idempotency-Key, and the server keeps no copy of a secret',
    );
    this.name = 'ReplayedSecretError';
    this.field = field;
    this.requestId = requestId;
  }
}

/** `T` with `field` a plain string: what the server promises outside an idempotent replay. */
export type WithSecret<T, F extends keyof T> = Omit<T, F> & { readonly [K in F]: string };

/**
 * Makes `value[field]` the plain string the type says, or, when the server sent none (a replay), a non-enumerable
 * accessor that throws ReplayedSecretError: a caller never checks for null, and never gets one.
 */
export function requireSecret<T extends object, F extends keyof T & string>(
  value: T,
  field: F,
  requestId: string,
): WithSecret<T, F> {
  if (typeof value[field] !== 'string') {
    Object.defineProperty(value, field, {
      enumerable: false,
      get() {
        throw new ReplayedSecretError(field, requestId);
      },
    });
  }
  return value as unknown as WithSecret<T, F>;
}
