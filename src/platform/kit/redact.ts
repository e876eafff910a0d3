/**
 * Secrets a client may put anywhere by mistake (a key as a path id, an EIN in a query string) must not travel on
 * into logs or error details (CONTRACT §2). Redaction is by shape, wherever the text came from: the prefix stays,
 * so a person can still tell what was sent (`sk_test_[redacted]`), the secret part does not.
 *
 * Shapes are found wherever they start, with no word boundary (`xsk_live_…`, `acct_sk_live_…`, `%20sk_live_…` are
 * keys too), in any case, and in the text's percent-decoded form as well as in the text itself (`%73k_live_…`,
 * `sk%5Flive%5F…`, and encodings of encodings): what a reader can decode is as good as plain.
 */
const KEY_SHAPED = /(sk_test_|sk_live_|whsec_)[A-Za-z0-9+/=_%-]+/gi;
// An EIN with its dash; or nine digits alone, not inside a run of letters and digits (as in an id's random part).
const EIN_SHAPED = /(?<![0-9])[0-9]{2}-[0-9]{7}(?![0-9])|(?<![0-9A-Za-z])[0-9]{9}(?![0-9A-Za-z])/g;
const EIN_DASHED = /(?<![0-9])[0-9]{2}-[0-9]{7}(?![0-9])/g;
// Whether a text may hold a shape at all: a key's prefix or a percent-encoding; an EIN's digits. Two plain
// patterns, because one with both (or with the `i` flag) measured three times as slow on a log line's ids.
const MAYBE_KEY = /[sS][kK]_|[wW][hH][sS][eE][cC]_|%/;
const MAYBE_EIN = /[0-9]{9}|[0-9]{2}-[0-9]{7}/;
// Only ASCII is decoded: every shape is ASCII, and a lone byte of a multi-byte character is no character.
const PERCENT_ASCII = /%([0-7][0-9A-Fa-f])/g;
const MAX_DECODINGS = 3;

export const REDACTED = '[redacted]';
// The placeholder the documentation and error details use to show the shape ("must look like 12-3456789").
const EIN_EXAMPLE = '12-3456789';

export interface RedactOptions {
  /**
   * Whether nine digits standing alone are taken for an EIN (the default). Off only for text whose numbers the
   * server wrote itself from values it holds or has validated (an amount, a balance): a nine-digit amount there is
   * an amount, and reads as one.
   */
  bareEin?: boolean;
}

function redactShapes(text: string, bareEin: boolean): string {
  return text
    .replace(KEY_SHAPED, `$1${REDACTED}`)
    .replace(bareEin ? EIN_SHAPED : EIN_DASHED, (ein) => (ein === EIN_EXAMPLE ? ein : '[redacted EIN]'));
}

function percentDecoded(text: string): string {
  let out = text;
  for (let i = 0; i < MAX_DECODINGS && out.includes('%'); i++) {
    const next = out.replace(PERCENT_ASCII, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === out) break;
    out = next;
  }
  return out;
}

export function redactSecrets(text: string, { bareEin = true }: RedactOptions = {}): string {
  // The common case (every log line's ids, routes and paths) costs two short scans and no allocation.
  if (!MAYBE_KEY.test(text) && !MAYBE_EIN.test(text)) return text;
  const redacted = redactShapes(text, bareEin);
  if (!redacted.includes('%')) return redacted;
  // Shown as sent unless decoding it reveals a shape; then decoded, and redacted.
  const decoded = percentDecoded(redacted);
  const both = redactShapes(decoded, bareEin);
  return both === decoded ? redacted : both;
}

// Fields that hold a secret whatever their shape (a key, an EIN, a webhook secret, a header): their values never
// reach a log line, at any depth.
const SECRET_FIELDS = new Set(['authorization', 'key', 'api_key', 'ein', 'secret']);
const MAX_DEPTH = 4;
// Deeper than any body the JSON parser accepts (json-body.ts: 32), so a body is redacted all the way down.
const BODY_MAX_DEPTH = 64;

/**
 * A log record with every secret-named field censored and every string redacted by shape, down to nested objects,
 * arrays and errors (what pino writes; it is the logger's formatter). Untouched records are returned as they are:
 * the request line, written for every request, costs a walk over its few flat fields and no allocation.
 */
export function redactRecord(
  record: Record<string, unknown>,
  depth = 0,
  maxDepth = MAX_DEPTH,
): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const name in record) {
    const value = record[name];
    const clean = SECRET_FIELDS.has(name) && value != null ? REDACTED : redactValue(value, depth, maxDepth);
    if (clean !== value) {
      copy ??= { ...record };
      copy[name] = clean;
    }
  }
  return copy ?? record;
}

function redactValue(value: unknown, depth: number, maxDepth: number): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return redactError(value);
  if (depth >= maxDepth) return '[nested too deep to log]';
  if (Array.isArray(value)) {
    const items = value.map((item) => redactValue(item, depth + 1, maxDepth));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  return redactRecord(value as Record<string, unknown>, depth + 1, maxDepth);
}

/**
 * A request body as the request log keeps it: the same rules as a log record (secret-named fields censored, secret
 * shapes redacted in every string), at any depth a body can have (the JSON parser refuses nesting deeper than 32).
 */
export function redactBody(body: Record<string, unknown>): Record<string, unknown> {
  return redactRecord(body, 0, BODY_MAX_DEPTH);
}

function redactError(error: Error): Error | { type: string; message: string; stack?: string } {
  const message = redactSecrets(error.message);
  const stack = error.stack === undefined ? undefined : redactSecrets(error.stack);
  if (message === error.message && stack === error.stack) return error;
  return { type: error.name, message, ...(stack === undefined ? {} : { stack }) };
}
