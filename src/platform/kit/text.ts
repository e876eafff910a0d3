/**
 * A free-text field as people type it (a legal name, an org name): trimmed, 1–`max` characters (code points),
 * no control characters, no lone surrogates, and no invisible or direction-changing characters (Unicode
 * categories Cf, Zl, Zp: U+200B, U+202E, U+2028…), which let one name pass for another on a screen.
 * Returns the trimmed text, or null when it breaks the rule.
 */
export function cleanText(raw: string, max: number): string | null {
  // Checked before trimming: JavaScript's trim() would quietly drop U+2028, U+2029 and U+FEFF at either end.
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(raw) || !raw.isWellFormed()) return null;
  const text = raw.trim();
  const length = [...text].length;
  return length >= 1 && length <= max ? text : null;
}

/** What `cleanText` asks for, in words, for the detail of a refusal. */
export function cleanTextRule(param: string, max: number): string {
  return (
    `${param} must be 1–${max} characters after trimming, without control, invisible or direction-changing ` +
    'characters (such as U+200B or U+202E).'
  );
}

type Ranges = readonly (readonly [number, number])[];

/**
 * What `cleanText` refuses anywhere, as code point ranges: Unicode Cc, Cf, Zl and Zp, as of Unicode 17 (Node 24's
 * ICU). Spelled out for `freeTextPattern`, since a JSON Schema pattern is also read by engines without `\p{…}`
 * (Schemathesis reads it with Python's `re`); test/platform/kit/text.test.ts checks them against this Node's `\p{…}`.
 * Lone surrogates (Cs), which `cleanText` refuses too (`isWellFormed`), are not in the pattern: Rust's regex engine,
 * which Schemathesis validates with, refuses a pattern that names them, and they can only come as JSON `\uD8xx`
 * escapes. The pattern lets them through, and the server refuses them with the same answer (`cleanText`).
 */
const REFUSED: Ranges = [
  [0x0000, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x0600, 0x0605],
  [0x061c, 0x061c],
  [0x06dd, 0x06dd],
  [0x070f, 0x070f],
  [0x0890, 0x0891],
  [0x08e2, 0x08e2],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
  [0x13430, 0x1343f],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0001, 0xe0001],
  [0xe0020, 0xe007f],
];

/** Unicode Zs: of what `trim()` removes, all that REFUSED leaves (the rest is Cc, Cf, Zl or Zp). */
const SPACES: Ranges = [
  [0x0020, 0x0020],
  [0x00a0, 0x00a0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];

export const TEXT_TABLES = { refused: REFUSED, spaces: SPACES };

/**
 * A character class's content. BMP code points as `\uXXXX`, which ECMA-262, Python and Rust all read alike; the
 * others as themselves: their escapes differ in every engine (`\u{…}`, `\U…`, `\x{…}`), their characters do not.
 */
function classOf(ranges: Ranges): string {
  const one = (c: number) =>
    c <= 0xffff ? `\\u${c.toString(16).toUpperCase().padStart(4, '0')}` : String.fromCodePoint(c);
  return [...ranges]
    .sort(([a], [b]) => a - b)
    .map(([from, to]) => (from === to ? one(from) : `${one(from)}-${one(to)}`))
    .join('');
}

const freeTextMaxima = new Map<string, number>();

/**
 * `cleanText(raw, max)`'s rule as a JSON Schema pattern (ECMA-262 with the `u` flag, as JSON Schema and Ajv read
 * it): spaces (Zs) at either end, which trimming removes, then 1–`max` characters of which the first and the last
 * are not spaces, none of them refused. No `maxLength`: the limit counts after trimming, the keyword before.
 * Negated classes, not the allowed ranges: Schemathesis draws from those a hundred times faster.
 */
export function freeTextPattern(max: number): string {
  if (!Number.isInteger(max) || max < 2) throw new Error(`freeTextPattern: max must be an integer ≥ 2, not ${max}`);
  const space = classOf(SPACES);
  const refused = classOf(REFUSED);
  const refusedOrSpace = classOf([...REFUSED, ...SPACES]);
  const pattern = `^[${space}]*[^${refusedOrSpace}](?:[^${refused}]{0,${max - 2}}[^${refusedOrSpace}])?[${space}]*$`;
  freeTextMaxima.set(pattern, max);
  return pattern;
}

/** The `max` a pattern of `freeTextPattern` was made for, or undefined for any other pattern. */
export function freeTextMaxOf(pattern: string | undefined): number | undefined {
  return pattern === undefined ? undefined : freeTextMaxima.get(pattern);
}
