import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';

/** The Idempotency-Key itself: its header, its shape, and the fingerprint of the request it was sent with. */

const HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

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

// One-shot `hash`, not `createHash(…).update(…).digest()`: no Hash object per request (the same digest).
export function fingerprint(method: string, path: string, body: unknown): string {
  return hash('sha256', `${method}\n${path}\n${canonicalJson(body ?? {})}`, 'hex');
}

/** An Idempotency-Key as sent (a header, a form's field), refused before anything runs when malformed. */
export function checkedKey(key: unknown): string {
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw new ApiError('parameter_invalid', 'Idempotency-Key must be 1–255 visible ASCII characters, e.g. a UUID.', {
      param: 'Idempotency-Key',
    });
  }
  return key;
}

/** The request's Idempotency-Key when it sent one. */
export function keyOf(request: FastifyRequest): string | undefined {
  const key = request.headers[HEADER];
  return key === undefined ? undefined : checkedKey(key);
}

/** A public POST (sign-up) has no owner to scope a key to: a replay would hand its secret to whoever sent the key. */
export function refuseIdempotencyKey(request: FastifyRequest): void {
  if (request.headers[HEADER] !== undefined) {
    throw new ApiError('parameter_unknown', 'This operation does not take an Idempotency-Key.', {
      param: 'Idempotency-Key',
    });
  }
}
