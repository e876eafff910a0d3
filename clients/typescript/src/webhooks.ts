/**
 * Verifying a webhook delivery (docs/api.md#webhooks, Standard Webhooks v1) with WebCrypto (`crypto.subtle`), so it
 * runs in browsers, workers and Node.js ≥ 19 alike with no `node:crypto` (Node.js 18 has `crypto.subtle` as a global
 * only with `--experimental-global-webcrypto`; the rest of the package does not need it).
 *
 *   const event = await Webhook.verify(secret, request.headers, rawBody); // throws WebhookVerificationError
 *
 * `rawBody` must be the exact bytes received (a string or bytes), not a re-serialised parse of them.
 */
import type { Event } from '../generated/models/index.js';

/** Why a delivery was refused: `missing_headers`, `timestamp_invalid`, `timestamp_too_old`, `timestamp_too_new`, `signature_mismatch`, `secret_invalid`. */
export class WebhookVerificationError extends Error {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the `webhook-timestamp` may be from now, either way. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** Unix seconds to compare against; default the clock. */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Compares in time that depends only on the lengths. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export const Webhook = {
  /**
   * Checks the delivery's timestamp (within `toleranceSeconds` of now) and that one of its `v1,` signatures is the
   * HMAC-SHA256, keyed with the decoded `whsec_` secret, of `<webhook-id>.<webhook-timestamp>.<body>`; returns the
   * parsed event, or throws WebhookVerificationError.
   */
  async verify(
    secret: string,
    headers: WebhookHeaders,
    rawBody: string | Uint8Array,
    options: VerifyOptions = {},
  ): Promise<Event> {
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    if (!id || !timestamp || !signatures) {
      throw new WebhookVerificationError(
        'missing_headers',
        'webhook-id, webhook-timestamp and webhook-signature are required',
      );
    }
    if (!/^\d+$/.test(timestamp))
      throw new WebhookVerificationError('timestamp_invalid', 'webhook-timestamp is not unix seconds');
    const tolerance = options.toleranceSeconds ?? 300;
    const now = options.now ?? Math.floor(Date.now() / 1000);
    const sent = Number(timestamp);
    if (sent < now - tolerance) throw new WebhookVerificationError('timestamp_too_old', 'webhook-timestamp is too old');
    if (sent > now + tolerance)
      throw new WebhookVerificationError('timestamp_too_new', 'webhook-timestamp is in the future');

    let key: Uint8Array;
    try {
      key = base64ToBytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
    } catch {
      throw new WebhookVerificationError('secret_invalid', 'the secret is not whsec_ followed by base64');
    }
    const body = typeof rawBody === 'string' ? new TextEncoder().encode(rawBody) : rawBody;
    const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
    const signed = new Uint8Array(prefix.length + body.length);
    signed.set(prefix, 0);
    signed.set(body, prefix.length);
    const subtle = globalThis.crypto?.subtle;
    if (!subtle)
      throw new Error('Webhook.verify needs WebCrypto (globalThis.crypto.subtle): a browser or Node.js >= 19');
    const hmacKey = await subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    const expected = bytesToBase64(new Uint8Array(await subtle.sign('HMAC', hmacKey, signed as BufferSource)));

    let matched = false;
    for (const candidate of signatures.split(' ')) {
      const [version, signature] = candidate.split(',', 2);
      if (version === 'v1' && signature !== undefined && constantTimeEqual(signature, expected)) matched = true;
    }
    if (!matched) throw new WebhookVerificationError('signature_mismatch', 'no webhook-signature matches the body');
    return JSON.parse(new TextDecoder().decode(body)) as Event;
  },
};
