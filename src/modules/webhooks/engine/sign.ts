import { createHmac, createSecretKey } from 'node:crypto';
import { boundedCache } from '../../../platform/kit/bounded-cache.ts';

/**
 * Standard Webhooks v1 signing: `v1,` + base64 HMAC-SHA256, keyed by the secret's bytes (base64 after `whsec_`),
 * of `<webhook-id>.<webhook-timestamp>.<body>`. With two valid secrets (a rotation's overlap) both signatures are
 * sent, space-separated; a receiver accepts the message when any one of them verifies.
 */
export function signature(secrets: string[], id: string, timestamp: number, body: string): string {
  let signed = '';
  for (const secret of secrets) {
    const hmac = createHmac('sha256', keyOf(secret)).update(id).update('.').update(String(timestamp)).update('.');
    signed += `${signed === '' ? '' : ' '}v1,${hmac.update(body).digest('base64')}`;
  }
  return signed;
}

/**
 * A secret's key, decoded once per secret rather than once per attempt, as a KeyObject: `createHmac` given bytes
 * first asks whether they are a KeyObject or a CryptoKey, and Node 24 answers each "no" by building (and dropping) a
 * TypeError with its stack trace, 11% of a delivery's instructions (bench/FINDINGS.md, issue 44). Bounded: the
 * oldest go first.
 */
const KEYS_KEPT = 1024;
const keyOf = boundedCache(KEYS_KEPT, (secret: string) =>
  createSecretKey(Buffer.from(secret.replace(/^whsec_/, ''), 'base64')),
);

/** The three headers of one attempt; the timestamp is this attempt's, the id the event's (the same on every retry). */
export function webhookHeaders(secrets: string[], eventId: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Plinth-Webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secrets, eventId, timestamp, body),
  };
}
