import { jsonMayHoldSecret, redactBody } from '../../platform/kit/redact.ts';
import { BODY_MAX_BYTES } from './requests.schema.ts';

/** The longest `detail` an entry keeps, in characters (the server writes them; none is near it). */
export const DETAIL_MAX = 1024;
const PARAM_MAX = 255;

/** What an entry keeps of the answer (docs/api.md#the-request-log). */
export interface LoggedAnswer {
  response_body: string | null;
  response_truncated: number;
  error_detail: string | null;
  error_param: string | null;
}

const NONE: LoggedAnswer = { response_body: null, response_truncated: 0, error_detail: null, error_param: null };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The last byte at or before `at` that starts a UTF-8 character (continuation bytes are 0b10xxxxxx). */
function characterStart(bytes: Buffer, at: number): number {
  let i = at;
  while (i > 0 && (bytes[i]! & 0xc0) === 0x80) i--;
  return i;
}

/** `text` cut at `BODY_MAX_BYTES` of UTF-8 on a character boundary, as a string of its own (not a slice of it). */
export function cutText(text: string): { text: string; truncated: boolean } {
  // A UTF-8 character is at most 3 bytes per UTF-16 unit: a short text needs no byte count.
  if (text.length * 3 <= BODY_MAX_BYTES || Buffer.byteLength(text) <= BODY_MAX_BYTES) return { text, truncated: false };
  const bytes = Buffer.from(text);
  return { text: bytes.toString('utf8', 0, characterStart(bytes, BODY_MAX_BYTES)), truncated: true };
}

function parsed(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

const field = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : null);

/**
 * The answer as the log keeps it: `answer` is the JSON text the server sent (or, for a dashboard action, the
 * operation's answer as an object). Redacted exactly as a request's body is (`redactBody`: a created key's `key`, a
 * webhook endpoint's `secret`, anything shaped like a key or an EIN), before it is cut at 8 KiB, so that no cut can
 * leave part of a secret. A text that cannot hold a secret (`jsonMayHoldSecret`) is kept as sent, unparsed; an
 * error's is always parsed, for its `detail` and `param`.
 */
export function loggedAnswer(answer: unknown, status: number): LoggedAnswer {
  let value: Record<string, unknown> | null = null;
  let text: string;
  if (typeof answer === 'string') {
    if (status < 400 && !jsonMayHoldSecret(answer)) text = answer;
    else {
      value = parsed(answer);
      if (value === null) return NONE;
      value = redactBody(value);
      text = JSON.stringify(value);
    }
  } else if (isObject(answer)) {
    value = redactBody(answer);
    text = JSON.stringify(value);
  } else return NONE;
  const kept = cutText(text);
  const error = status >= 400 && value !== null;
  return {
    response_body: kept.text,
    response_truncated: kept.truncated ? 1 : 0,
    error_detail: error ? field(value!.detail, DETAIL_MAX) : null,
    error_param: error ? field(value!.param, PARAM_MAX) : null,
  };
}
