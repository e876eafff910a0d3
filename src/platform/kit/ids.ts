import { randomFillSync } from 'node:crypto';

// Crockford base32: URL-safe, case-insensitive-friendly, and lexicographic order equals numeric order,
// so ids sort by creation time as plain strings in every database.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10; // 50 bits: the time in 1/256 ms (until the year 2109)
const TICKS_PER_MS = 256;
const RANDOM_BYTES = 10; // 80 random bits, drawn fresh for every id

// The last tick used, per prefix: ids of one kind never repeat a tick, so they strictly increase in this process.
const lastTick = new Map<string, number>();

/**
 * A prefixed, time-sortable id: `<prefix>_` + 26 characters: the time in 1/256 ms (50 bits), then 80 random bits
 * drawn fresh for every id. Ordering within a process comes from the time part alone: each prefix takes a tick
 * after the last one it used (a logical clock that runs at most 256 ids per millisecond ahead of the wall clock,
 * and waits for it when the clock stalls or steps back). So keyset pagination never sees a new id land behind a
 * cursor just handed out, and no id is ever "another id plus one": ULID's monotonic mode incremented the random
 * part instead, which made ids minted in one millisecond guessable from each other, across orgs and kinds.
 * Ids minted when the time part counted whole milliseconds (48 bits) all sort before these.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  const tick = Math.max(now * TICKS_PER_MS, (lastTick.get(prefix) ?? 0) + 1);
  lastTick.set(prefix, tick);
  return `${prefix}_${encodeTime(tick)}${encodeRandom()}`;
}

// Random bytes drawn from the CSPRNG a pool at a time (as node's randomUUID does): one call into the crypto
// library per id showed in the create load's profile (bench/FINDINGS.md). Every id still takes bytes no other id used.
const pool = Buffer.alloc(RANDOM_BYTES * 512);
let poolOffset = pool.length;

function encodeTime(tick: number): string {
  let out = '';
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET[tick % 32] + out;
    tick = Math.floor(tick / 32);
  }
  return out;
}

/** 80 fresh random bits as 16 base32 characters: two 40-bit halves, each exact in a double (no BigInt). */
function encodeRandom(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const at = poolOffset;
  poolOffset += RANDOM_BYTES;
  return encode40(pool, at) + encode40(pool, at + 5);
}

function encode40(bytes: Buffer, at: number): string {
  let value = bytes[at]! * 2 ** 32 + bytes.readUInt32BE(at + 1);
  let out = '';
  for (let i = 0; i < 8; i++) {
    out = ALPHABET[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

/**
 * The lowest id of `prefix` that `newId` can mint at `time` (ms) or later: every id minted earlier sorts below it, so
 * a range of the primary key stands in for a range of creation times (retention walks it instead of a time index).
 */
export function firstIdAt(prefix: string, time: number): string {
  return `${prefix}_${encodeTime(time * TICKS_PER_MS)}`;
}

/** The 26 characters after an id's prefix: Crockford base32 (no I, L, O or U). */
const ID_BODY = '[0-9A-HJKMNP-TV-Z]{26}';

/** The shape of every id of `prefix` this service hands out, as a regular expression (JSON Schema `pattern`). */
export function idPattern(prefix: string): string {
  return `^${prefix}_${ID_BODY}$`;
}

/** Whether a schema's `pattern` is an id's shape (see `idPattern`), which a request's id is never refused for. */
export function isIdPattern(pattern: string): boolean {
  return /^\^[a-z]+_/.test(pattern) && pattern.endsWith(`_${ID_BODY}$`);
}

/** Shape of every id this service hands out; used to reject garbage before it reaches a query. */
export function isIdOf(prefix: string, value: string): boolean {
  return (
    value.length === prefix.length + 27 &&
    value.startsWith(`${prefix}_`) &&
    /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value.slice(prefix.length + 1))
  );
}

/** A kind of object the API hands out: the noun its messages use, and the prefix of its ids. */
export interface IdKind {
  readonly noun: string;
  readonly prefix: string;
}

/**
 * A 404 detail that echoes the id only when it has the shape of one of `prefix`: anything else may be a secret pasted
 * where an id goes (`whsec_…`, `sk_live_…`, `acct_sk_live_…`), and is never repeated back or logged with the error.
 */
export function notFoundDetail(what: string, prefix: string, id: string): string {
  return isIdOf(prefix, id) ? `${what}: ${id}` : `${what} with this id.`;
}

/** When an id was minted, in milliseconds since the epoch (its time part, see `newId`, to the millisecond). */
export function timeOfId(id: string): number {
  const at = id.indexOf('_') + 1;
  let tick = 0;
  for (let i = at; i < at + TIME_CHARS; i++) tick = tick * 32 + ALPHABET.indexOf(id[i]!);
  return Math.floor(tick / TICKS_PER_MS);
}
