import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks v1 signing: `v1,` + base64 HMAC-SHA256, keyed by the secret's bytes (base64 after `whsec_`),
 * of `<webhook-id>.<webhook-timestamp>.<body>`. With two valid secrets (a rotation's overlap) both signatures are
 * sent, space-separated; a receiver accepts the message when any one of them verifies.
 */
export function signature(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

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
