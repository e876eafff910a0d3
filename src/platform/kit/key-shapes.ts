/**
 * Keys and signing secrets by their prefix (docs/api.md#authentication-and-modes): where one starts in a text, where
 * its secret characters end (across the separators a paste can put in them), and whether a string ends inside one.
 * redact.ts redacts with these; metadata refuses any text that holds a prefix (`holdsSecretPrefix`). After a
 * prefix, a secret's characters are taken across whitespace and separators until there are as many as a secret has
 * (`sk_live_ABC⏎DEF…` is one key, split): a key that kept 35 of its 38 characters can be rebuilt from its checksum.
 */
const KEY_PREFIX = /sk_test_|sk_live_|rk_test_|rk_live_|whsec_/gi;
// How many characters follow a prefix: a key's (a restricted key's, `rk_`, too) 32 random and 6 of checksum; a
// webhook secret's, the base64 of 32 bytes.
const secretLength = (prefix: string) => (prefix.length === 6 ? 44 : 38);
const SECRET_CHAR = /[A-Za-z0-9+/=_%-]/;
// What can split a pasted secret: whitespace, invisible characters and ASCII punctuation that is not a secret's
// own. Not `…`, which a key's hint (`sk_live_…a1B2`) puts where the secret was.
const SEPARATOR = /[\s\p{Cf}!"#$&'()*,.:;<>?@[\\\]^`{|}~]/u;
// Whether a text may hold a key at all: a key's prefix or a percent-encoding. Kept apart from the registered shapes'
// hint, because one pattern with both (or with the `i` flag) measured three times as slow on a log line's ids.
export const MAYBE_KEY = /[sSrR][kK]_|[wW][hH][sS][eE][cC]_|%/;

export const REDACTED = '[redacted]';

/** The prefixes of a key or a signing secret, as a person reads them (docs/api.md#metadata-your-own-references). */
export const SECRET_PREFIXES = 'sk_live_…, sk_test_…, rk_live_…, rk_test_… or whsec_…';

/**
 * Whether `text` holds a key's or a signing secret's prefix, in any case: a whole secret, or the start of one cut short
 * (`sk_live_ABC`, the first line of a key split over two). Metadata refuses it (metadata.schema.ts).
 */
export const holdsSecretPrefix = (text: string) => new RegExp(KEY_PREFIX.source, 'i').test(text);

/**
 * The secret after a prefix: `length` secret characters, separators between them skipped, then any more that follow
 * at once; where it ends, how many characters it took, and whether the text ended before all `length` were found
 * (`cut`: the rest may carry on in the next string, see `redactRecord`). When none follows, there is no secret (the
 * prefix alone, or a hint's `…`).
 */
function scanSecret(text: string, from: number, length: number): { end: number; taken: number; cut: boolean } {
  let taken = 0;
  let end = from;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (SECRET_CHAR.test(c)) {
      taken++;
      end = i + 1;
    } else if (taken >= length || !SEPARATOR.test(c)) return { end, taken, cut: false };
  }
  return { end, taken, cut: taken < length };
}

const secretEnd = (text: string, from: number, length: number) => scanSecret(text, from, length).end;

/** How many characters of a secret are still to come when `text` ends inside one (a key cut by its string's end). */
export function owedAtEnd(text: string): number {
  if (!MAYBE_KEY.test(text)) return 0;
  let owed = 0;
  const prefixes = new RegExp(KEY_PREFIX.source, 'gi');
  for (let match = prefixes.exec(text); match !== null; match = prefixes.exec(text)) {
    const length = secretLength(match[0]);
    const scan = scanSecret(text, match.index + match[0].length, length);
    owed = scan.cut ? length - scan.taken : 0;
  }
  return owed;
}

/**
 * A string that starts with the rest of a secret cut at the end of the string before it (every character still owed,
 * after separators), with that rest redacted. A string that ends first does not carry it on (a metadata key holding 32
 * of a key's 38 characters and the value `x` after it: the `x` is no part of it).
 */
export function carriedOn(text: string, owed: number): string {
  const scan = scanSecret(text, 0, owed);
  return scan.taken < owed ? text : REDACTED + text.slice(scan.end);
}

export function redactKeys(text: string): string {
  let out = '';
  let from = 0;
  KEY_PREFIX.lastIndex = 0;
  for (let match = KEY_PREFIX.exec(text); match !== null; match = KEY_PREFIX.exec(text)) {
    const start = match.index + match[0].length;
    const end = secretEnd(text, start, secretLength(match[0]));
    if (end === start) continue;
    out += text.slice(from, start) + REDACTED;
    from = end;
    KEY_PREFIX.lastIndex = end;
  }
  return from === 0 ? text : out + text.slice(from);
}
