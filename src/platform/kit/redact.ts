/**
 * Secrets a client may put anywhere by mistake (a key as a path id, an EIN in a query string) must not travel on
 * into logs or error details (CONTRACT §2). Redaction is by shape, wherever the text came from: the prefix stays,
 * so a person can still tell what was sent (`sk_test_[redacted]`), the secret part does not.
 */
const KEY_SHAPED = /\b(sk_test_|sk_live_|whsec_)[A-Za-z0-9+/=_%-]*/g;
const EIN_SHAPED = /(?<![0-9])[0-9]{2}-[0-9]{7}(?![0-9])/g;

export const REDACTED = '[redacted]';
// The placeholder the documentation and error details use to show the shape ("must look like 12-3456789").
const EIN_EXAMPLE = '12-3456789';

export function redactSecrets(text: string): string {
  // The common case, text with neither shape, costs two scans and no allocation.
  if (!text.includes('_') && !text.includes('-')) return text;
  return text
    .replace(KEY_SHAPED, `$1${REDACTED}`)
    .replace(EIN_SHAPED, (ein) => (ein === EIN_EXAMPLE ? ein : '[redacted EIN]'));
}

/** A log record with every string redacted, one level deep and inside `err` (what pino writes). */
export function redactRecord(record: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const [name, value] of Object.entries(record)) {
    let clean = value;
    if (typeof value === 'string') clean = redactSecrets(value);
    else if (value instanceof Error) clean = redactError(value);
    if (clean !== value) {
      copy ??= { ...record };
      copy[name] = clean;
    }
  }
  return copy ?? record;
}

function redactError(error: Error): Error | { type: string; message: string; stack?: string } {
  const message = redactSecrets(error.message);
  const stack = error.stack === undefined ? undefined : redactSecrets(error.stack);
  if (message === error.message && stack === error.stack) return error;
  return { type: error.name, message, ...(stack === undefined ? {} : { stack }) };
}
