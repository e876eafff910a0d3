/**
 * Secrets a client may put anywhere by mistake (a key as a path id, an EIN in a query string) must not travel on
 * into logs or error details (docs/api.md#authentication-and-modes). Redaction is by shape, wherever the text came from: the
 * prefix stays, so a person can still tell what was sent (`sk_test_[redacted]`), the secret part does not. The
 * platform's shapes (keys, webhook secrets) are here; a product registers its own (`Product.secretShapes`, e.g.
 * fintech's EIN), handed over once at start-up (`useSecretShapes`) and compiled into one pattern then.
 *
 * Shapes are found wherever they start, with no word boundary (`xsk_live_…`, `acct_sk_live_…`, `%20sk_live_…` are
 * keys too), in any case, and in the text's percent-decoded form as well as in the text itself (`%73k_live_…`,
 * `sk%5Flive%5F…`, and encodings of encodings): what a reader can decode is as good as plain. After a prefix, a
 * secret's characters are taken across whitespace and separators until there are as many as a secret has
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
const MAYBE_KEY = /[sSrR][kK]_|[wW][hH][sS][eE][cC]_|%/;
// Only ASCII is decoded: every shape is ASCII, and a lone byte of a multi-byte character is no character.
const PERCENT_ASCII = /%([0-7][0-9A-Fa-f])/g;
const MAX_DECODINGS = 3;

export const REDACTED = '[redacted]';

/** The prefixes of a key or a signing secret, as a person reads them (docs/api.md#metadata-your-own-references). */
export const SECRET_PREFIXES = 'sk_live_…, sk_test_…, rk_live_…, rk_test_… or whsec_…';

/**
 * Whether `text` holds a key's or a signing secret's prefix, in any case: a whole secret, or the start of one cut short
 * (`sk_live_ABC`, the first line of a key split over two). Metadata refuses it (metadata.schema.ts).
 */
export const holdsSecretPrefix = (text: string) => new RegExp(KEY_PREFIX.source, 'i').test(text);

/** A product's secret, by its shape: whatever text holds it is redacted to `[redacted <name>]`. */
export interface SecretShape {
  /** Named in the placeholder: `[redacted EIN]`. */
  name: string;
  /** The shape, looked for in every text (its source: flags are not kept, and its groups should be `(?:…)`). */
  pattern: RegExp;
  /** A looser shape, looked for too unless the text's numbers are the server's own (`RedactOptions.ownNumbers`). */
  loose?: RegExp;
  /** A plain pattern (no look-around, no flags) that any text holding the shape matches: most texts fail it fast. */
  hint: RegExp;
  /** The value the documentation and error details show as the shape's example: left as it is. */
  example?: string;
  /** Names of fields whose values are this secret whatever their shape: censored in log records at any depth. */
  fields?: string[];
}

/** The registered shapes, compiled once: one pattern for every text, one for the server's own. */
interface Compiled {
  maybe: RegExp | null;
  all: RegExp;
  strict: RegExp;
  placeholders: string[];
  examples: Set<string>;
  fields: Set<string>;
  /** Any of `fields` as a JSON string: `"key"`, `"ein"`. */
  fieldNames: RegExp;
}

// Fields that hold a secret whatever their shape (a key, a webhook secret, a header): their values never reach a log
// line, at any depth. Registered shapes add theirs.
const PLATFORM_SECRET_FIELDS = ['authorization', 'key', 'api_key', 'secret'];

function compile(shapes: readonly SecretShape[]): Compiled {
  // One named group per shape tells which one matched; `(?!)` matches nothing, for a registry without shapes.
  const alternation = (loose: boolean) =>
    shapes.map((s, i) => `(?<s${i}>${s.pattern.source}${loose && s.loose ? `|${s.loose.source}` : ''})`).join('|') ||
    '(?!)';
  const fields = new Set([...PLATFORM_SECRET_FIELDS, ...shapes.flatMap((s) => s.fields ?? [])]);
  return {
    maybe: shapes.length === 0 ? null : new RegExp(shapes.map((s) => s.hint.source).join('|')),
    all: new RegExp(alternation(true), 'g'),
    strict: new RegExp(alternation(false), 'g'),
    placeholders: shapes.map((s) => `[redacted ${s.name}]`),
    examples: new Set(shapes.flatMap((s) => (s.example === undefined ? [] : [s.example]))),
    fields,
    fieldNames: new RegExp(`"(?:${[...fields].map((f) => f.replace(/[^\w]/g, '\\$&')).join('|')})"`),
  };
}

let shapes = compile([]);

/** Takes every registered product's secret shapes (src/products.ts), once at start-up, before anything is logged. */
export function useSecretShapes(registered: readonly SecretShape[]): void {
  shapes = compile(registered);
}

export interface RedactOptions {
  /**
   * The text's numbers are the server's own, written from values it holds or has validated (an amount, a balance):
   * the shapes' loose forms are not looked for (a nine-digit amount there is an amount, and reads as one).
   */
  ownNumbers?: boolean;
}

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
function owedAtEnd(text: string): number {
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
function carriedOn(text: string, owed: number): string {
  const scan = scanSecret(text, 0, owed);
  return scan.taken < owed ? text : REDACTED + text.slice(scan.end);
}

function redactKeys(text: string): string {
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

function redactShapes(text: string, ownNumbers: boolean): string {
  const keysRedacted = redactKeys(text);
  if (shapes.maybe === null) return keysRedacted;
  const { placeholders, examples } = shapes;
  return keysRedacted.replace(ownNumbers ? shapes.strict : shapes.all, (...args) => {
    const match: string = args[0];
    if (examples.has(match)) return match;
    const groups: Record<string, string | undefined> = args.at(-1);
    return placeholders[placeholders.findIndex((_, i) => groups[`s${i}`] !== undefined)]!;
  });
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

export function redactSecrets(text: string, { ownNumbers = false }: RedactOptions = {}): string {
  // The common case (every log line's ids, routes and paths) costs two short scans and no allocation.
  if (!MAYBE_KEY.test(text) && (shapes.maybe === null || !shapes.maybe.test(text))) return text;
  const redacted = redactShapes(text, ownNumbers);
  if (!redacted.includes('%')) return redacted;
  // Shown as sent unless decoding it reveals a shape; then decoded, and redacted.
  const decoded = percentDecoded(redacted);
  const both = redactShapes(decoded, ownNumbers);
  return both === decoded ? redacted : both;
}

const MAX_DEPTH = 4;
// Deeper than any body the JSON parser accepts (json-body.ts: 32), so a body is redacted all the way down.
const BODY_MAX_DEPTH = 64;

/**
 * A secret cut at the end of one string whose rest carries on at the start of the next, in the order the JSON text
 * has them (a field's name, then its value): `{"n": "sk_live_ABC", "<the other 35 characters>": "x"}`, as two lines
 * of a metadata field (`n=sk_live_ABC` and `<35 characters>=x`) make it. `owed` is how many characters are to come.
 */
interface Carry {
  owed: number;
}

/** A string of a record, in document order: what it carries on of the string before it, then its own shapes. */
function redactString(text: string, carry: Carry, short = false): string {
  const out = carry.owed > 0 ? carriedOn(text, carry.owed) : text;
  carry.owed = 0;
  if (short) return out;
  carry.owed = owedAtEnd(text);
  return redactSecrets(out);
}

/**
 * A log record with every secret-named field censored and every string redacted by shape, down to nested objects,
 * arrays and errors (what pino writes; it is the logger's formatter). Field names are redacted by shape too: a
 * client chooses them (a metadata key, an unknown field), and may paste a key there as well as anywhere; and a key
 * cut at the end of one string and carried on in the next (`Carry`) is redacted in both. Untouched records are
 * returned as they are: the request line, written for every request, costs a walk over its few flat fields and no
 * allocation.
 */
export function redactRecord(
  record: Record<string, unknown>,
  depth = 0,
  maxDepth = MAX_DEPTH,
  carry: Carry = { owed: 0 },
): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  let index = 0;
  for (const name in record) {
    const value = record[name];
    // Shorter than any shape (`whsec_` and one character): most names of a log line are.
    const cleanName = redactString(name, carry, name.length < 7);
    let clean: unknown;
    if (shapes.fields.has(name) && value != null) {
      clean = REDACTED;
      carry.owed = 0;
    } else clean = redactValue(value, depth, maxDepth, carry);
    if (copy === null && (clean !== value || cleanName !== name)) copy = firstFields(record, index);
    // Defined, not assigned, so that a `__proto__` field stays a field.
    if (copy !== null) put(copy, cleanName, clean);
    index++;
  }
  return copy ?? record;
}

function put(record: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of the record's first `count` fields, in their order. */
function firstFields(record: Record<string, unknown>, count: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  let index = 0;
  for (const name in record) {
    if (index++ === count) break;
    put(copy, name, record[name]);
  }
  return copy;
}

function redactValue(value: unknown, depth: number, maxDepth: number, carry: Carry): unknown {
  if (typeof value === 'string') return redactString(value, carry);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return redactError(value);
  if (depth >= maxDepth) return '[nested too deep to log]';
  if (Array.isArray(value)) {
    const items = value.map((item) => redactValue(item, depth + 1, maxDepth, carry));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  return redactRecord(value as Record<string, unknown>, depth + 1, maxDepth, carry);
}

/**
 * A request body as the request log keeps it: the same rules as a log record (secret-named fields censored, secret
 * shapes redacted in every string), at any depth a body can have (the JSON parser refuses nesting deeper than 32).
 */
export function redactBody(body: Record<string, unknown>): Record<string, unknown> {
  return redactRecord(body, 0, BODY_MAX_DEPTH);
}

/**
 * Whether `redactBody` could change what the JSON `text` holds: false only when nothing in it is escaped (so its
 * strings and names are the text's own characters), no string or name may hold a secret's shape, and no name is
 * that of a secret field. One scan of the text each; most answers pass, and need no parse.
 */
export function jsonMayHoldSecret(text: string): boolean {
  return (
    text.includes('\\') || MAYBE_KEY.test(text) || shapes.maybe?.test(text) === true || shapes.fieldNames.test(text)
  );
}

/**
 * `JSON.stringify(redactBody(body))`, the request log's form of a body, without the walk when the body's JSON text
 * shows that nothing in it is to be redacted (`jsonMayHoldSecret`). Most bodies are serialized once and scanned.
 */
export function redactedJson(body: Record<string, unknown>): string {
  const text = JSON.stringify(body);
  return jsonMayHoldSecret(text) ? JSON.stringify(redactBody(body)) : text;
}

/** A query parameter's name as a body's field: `kyb[ein]` → `ein`, percent-decoded, `+` a space, in lower case. */
function fieldOfParameter(name: string): string {
  const decoded = percentDecoded(name.replaceAll('+', ' ')).toLowerCase();
  const last = /\[([^\]]*)\]$/.exec(decoded);
  return last === null ? decoded : last[1]!;
}

/**
 * A query string (without its `?`) as the request log keeps it: redacted as a body is, so a parameter named like a
 * secret field (`api_key=…`, `kyb[ein]=…`) has its value replaced by `[redacted]`, and every secret shape in the rest
 * is redacted as in any text.
 */
export function redactQuery(query: string): string {
  const parameters = query.split('&').map((parameter) => {
    const at = parameter.indexOf('=');
    if (at < 1 || at === parameter.length - 1 || !shapes.fields.has(fieldOfParameter(parameter.slice(0, at))))
      return parameter;
    return `${parameter.slice(0, at + 1)}${REDACTED}`;
  });
  return redactSecrets(parameters.join('&'));
}

function redactError(error: Error): Error | { type: string; message: string; stack?: string } {
  const message = redactSecrets(error.message);
  const stack = error.stack === undefined ? undefined : redactSecrets(error.stack);
  if (message === error.message && stack === error.stack) return error;
  return { type: error.name, message, ...(stack === undefined ? {} : { stack }) };
}
