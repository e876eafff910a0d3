import { ApiError } from './errors.ts';

/** docs/api.md#the-wire: nesting deeper than this (the top-level object is depth 1) is refused. */
export const MAX_DEPTH = 32;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function malformed(detail: string): ApiError {
  return new ApiError('body_malformed', detail);
}

/**
 * Parses a request body under the hostile-input rules of docs/api.md#the-wire. JSON.parse alone accepts duplicate keys
 * (last one wins, so two readers of one body can disagree), `__proto__` keys and unbounded nesting, so after it
 * has checked the syntax one linear scan over the text checks what it lets through.
 */
export function parseStrictJson(raw: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw malformed('The body is not valid UTF-8.');
  }
  if (text.includes('\u0000')) throw malformed('The body contains a NUL character.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformed('The body is not valid JSON.');
  }
  return scan(text) ? JSON.parse(text, notIntegers) : value;
}

/**
 * Every integer of the API is decided on its token, not on the number JSON.parse makes of it (which rounds
 * `1.00000000000000001` to 1): a number written with a fraction or an exponent becomes NaN, which no integer
 * schema accepts, so validation refuses it as `parameter_invalid`, naming the field. No request body has a
 * non-integer number field; one that ever does must take such tokens as they are.
 */
function notIntegers(_key: string, value: unknown, context?: { source?: string }): unknown {
  return typeof value === 'number' && /[.eE]/.test(context?.source ?? '') ? Number.NaN : value;
}

interface Frame {
  keys: Set<string> | null; // null for arrays
  expectKey: boolean;
}

/**
 * Safe to scan naively: JSON.parse has already accepted the text, so strings are well formed. True when a number
 * token has a fraction or an exponent (outside strings, a `.` is only ever in a number, and an `e` after a digit).
 */
function scan(text: string): boolean {
  const stack: Frame[] = [];
  let inexact = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e /* . */ || ((c === 0x65 /* e */ || c === 0x45) /* E */ && isDigit(text.charCodeAt(i - 1)))) {
      inexact = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push({ keys: c === 0x7b ? new Set() : null, expectKey: c === 0x7b });
      if (stack.length > MAX_DEPTH) throw malformed(`The body is nested deeper than ${MAX_DEPTH} levels.`);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack.at(-1);
      if (top?.keys) top.expectKey = true;
    } else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const top = stack.at(-1);
      const token = text.slice(i, end + 1);
      const needsDecode = token.includes('\\');
      if (top?.keys && top.expectKey) {
        const key = needsDecode ? (JSON.parse(token) as string) : token.slice(1, -1);
        checkKey(key, top.keys);
        top.expectKey = false;
      } else if (needsDecode && token.includes('\\u') && (JSON.parse(token) as string).includes('\u0000')) {
        throw malformed('The body contains a NUL character.');
      }
      i = end;
    }
  }
  return inexact;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

function checkKey(key: string, seen: Set<string>): void {
  if (key.includes('\u0000')) throw malformed('The body contains a NUL character.');
  if (FORBIDDEN_KEYS.has(key)) throw malformed(`The key "${key}" is not allowed.`);
  if (seen.has(key))
    throw malformed(`The key ${JSON.stringify(key.slice(0, 64))} appears more than once in one object.`);
  seen.add(key);
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i;
  }
  return text.length - 1; // unreachable for text JSON.parse accepted
}
