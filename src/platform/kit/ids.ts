import { randomBytes } from 'node:crypto';

// Crockford base32: URL-safe, case-insensitive-friendly, and lexicographic order equals numeric order,
// so ids sort by creation time as plain strings in every database.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10; // 48 bits of milliseconds
const RANDOM_BYTES = 10; // 80 random bits

let lastMs = 0;
let lastRandom: Buffer = Buffer.alloc(RANDOM_BYTES);

/**
 * A prefixed, time-sortable id: `<prefix>_` + 26 characters (48-bit ms timestamp, 80 random bits), in the
 * spirit of ULID. Within one process ids are strictly increasing even when the clock stalls or steps back,
 * so keyset pagination never sees a new id land behind a cursor that was just handed out.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  let random: Buffer;
  if (now <= lastMs) {
    random = increment(lastRandom);
    now = lastMs;
  } else {
    random = randomBytes(RANDOM_BYTES);
    lastMs = now;
  }
  lastRandom = random;
  return `${prefix}_${encodeTime(now)}${encodeRandom(random)}`;
}

function increment(bytes: Buffer): Buffer {
  const next = Buffer.from(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] !== 0xff) {
      next[i] = next[i]! + 1;
      return next;
    }
    next[i] = 0;
  }
  // 2^80 ids in one millisecond cannot happen; wrap to fresh randomness rather than repeat.
  return randomBytes(RANDOM_BYTES);
}

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function encodeRandom(bytes: Buffer): string {
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

/** Shape of every id this service hands out; used to reject garbage before it reaches a query. */
export function isIdOf(prefix: string, value: string): boolean {
  return (
    value.length === prefix.length + 27 &&
    value.startsWith(`${prefix}_`) &&
    /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value.slice(prefix.length + 1))
  );
}

/**
 * A 404 detail that echoes the id only when it has the shape of one of `prefix`: a secret pasted where an id goes
 * (`whsec_…`, `sk_live_…`) is never repeated back or logged with the error.
 */
export function notFoundDetail(what: string, prefix: string, id: string): string {
  return isIdOf(prefix, id) ? `${what}: ${id}` : `${what} with this id.`;
}
