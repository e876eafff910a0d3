/**
 * Secrets a client may put anywhere by mistake (a key as a path id, an EIN in a query string) must not travel on
 * into logs or error details (docs/api.md#authentication-and-modes). Redaction is by shape, wherever the text came from: the
 * prefix stays, so a person can still tell what was sent (`sk_test_[redacted]`), the secret part does not. The
 * platform's shapes (keys, webhook secrets) are here; a product registers its own (`Product.secretShapes`, e.g.
 * fintech's EIN), handed over once at start-up (`useSecretShapes`) and compiled into one pattern then.
 *
 * Shapes are found wherever they start, with no word boundary (`xsk_live_…`, `acct_sk_live_…`, `%20sk_live_…` are
 * keys too), in any case, and in the text's percent-decoded form as well as in the text itself (`%73k_live_…`,
 * `sk%5Flive%5F…`, and encodings of encodings): what a reader can decode is as good as plain. A key split by a
 * paste is redacted whole (key-shapes.ts).
 */
import { carriedOn, MAYBE_KEY, owedAtEnd, REDACTED, redactKeys } from './key-shapes.ts';

// Only ASCII is decoded: every shape is ASCII, and a lone byte of a multi-byte character is no character.
const PERCENT_ASCII = /%([0-7][0-9A-Fa-f])/g;
const MAX_DECODINGS = 3;

/**
 * A product's secret, by its shape: whatever text holds it is redacted to `[redacted <name>]`. A secret with no
 * shape of its own (a bank account number is only digits) may be known by its fields alone.
 */
export interface SecretShape {
  /** Named in the placeholder: `[redacted EIN]`. */
  name: string;
  /** The shape, looked for in every text (its source: flags are not kept, and its groups should be `(?:…)`). */
  pattern?: RegExp;
  /** A looser shape, looked for too unless the text's numbers are the server's own (`RedactOptions.ownNumbers`). */
  loose?: RegExp;
  /**
   * A plain pattern (no look-around, no flags) that any text holding the shape matches: most texts fail it fast.
   * Required with `pattern`.
   */
  hint?: RegExp;
  /** The value the documentation and error details show as the shape's example: left as it is. */
  example?: string;
  /** Names of fields whose values are this secret whatever their shape: censored in log records at any depth. */
  fields?: string[];
  /**
   * Names of fields whose values are this secret but whose last four characters may be shown, as the API itself
   * shows them (`account_number_last4`): in log records at any depth, in request bodies and answers and in query
   * strings, the value becomes `••••4821` (its last four after four dots; a value that is no string nor number,
   * `[redacted]`).
   */
  lastFourFields?: string[];
}

/** The registered shapes, compiled once: one pattern for every text, one for the server's own. */
interface Compiled {
  maybe: RegExp | null;
  all: RegExp;
  strict: RegExp;
  placeholders: string[];
  examples: Set<string>;
  fields: Set<string>;
  lastFour: Set<string>;
  /** Any of `fields` or `lastFour` as a JSON string: `"key"`, `"ein"`. */
  fieldNames: RegExp;
}

// Fields that hold a secret whatever their shape (a key, a webhook secret, a header): their values never reach a log
// line, at any depth. Registered shapes add theirs.
const PLATFORM_SECRET_FIELDS = ['authorization', 'key', 'api_key', 'secret'];

function compile(registered: readonly SecretShape[]): Compiled {
  // Only the shapes with a pattern are looked for in texts; the others are known by their fields.
  const shapes = registered.filter((s): s is SecretShape & { pattern: RegExp; hint: RegExp } => {
    if (s.pattern !== undefined && s.hint === undefined)
      throw new Error(`secret shape ${s.name}: a pattern needs a hint`);
    return s.pattern !== undefined;
  });
  // One named group per shape tells which one matched; `(?!)` matches nothing, for a registry without shapes.
  const alternation = (loose: boolean) =>
    shapes.map((s, i) => `(?<s${i}>${s.pattern.source}${loose && s.loose ? `|${s.loose.source}` : ''})`).join('|') ||
    '(?!)';
  const fields = new Set([...PLATFORM_SECRET_FIELDS, ...registered.flatMap((s) => s.fields ?? [])]);
  const lastFour = new Set(registered.flatMap((s) => s.lastFourFields ?? []).filter((f) => !fields.has(f)));
  const named = [...fields, ...lastFour];
  return {
    maybe: shapes.length === 0 ? null : new RegExp(shapes.map((s) => s.hint.source).join('|')),
    all: new RegExp(alternation(true), 'g'),
    strict: new RegExp(alternation(false), 'g'),
    placeholders: shapes.map((s) => `[redacted ${s.name}]`),
    examples: new Set(shapes.flatMap((s) => (s.example === undefined ? [] : [s.example]))),
    fields,
    lastFour,
    fieldNames: new RegExp(`"(?:${named.map((f) => f.replace(/[^\w]/g, '\\$&')).join('|')})"`),
  };
}

let shapes = compile([]);

/** Takes every registered module's secret shapes (src/modules.ts), once at start-up, before anything is logged. */
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
 * A secret cut at the end of one string whose rest carries on at the start of the next, in JSON text order (a field's
 * name, then its value), as two lines of a metadata field make it: `{"n": "sk_live_ABC", "<the other 35>": "x"}`.
 */
type Carry = { owed: number };

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
    } else if (shapes.lastFour.has(name) && value != null) {
      clean = lastFourOf(value);
      carry.owed = 0;
    } else clean = redactValue(value, depth, maxDepth, carry);
    if (copy === null && (clean !== value || cleanName !== name)) copy = firstFields(record, index);
    // Defined, not assigned, so that a `__proto__` field stays a field.
    if (copy !== null) put(copy, cleanName, clean);
    index++;
  }
  return copy ?? record;
}

/** A value that may be shown by its last four characters only: `••••4821`; what is no string or number, `[redacted]`. */
export function lastFourOf(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') return REDACTED;
  return `••••${String(value).slice(-4)}`;
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
    if (at < 1 || at === parameter.length - 1) return parameter;
    const field = fieldOfParameter(parameter.slice(0, at));
    if (shapes.fields.has(field)) return `${parameter.slice(0, at + 1)}${REDACTED}`;
    if (!shapes.lastFour.has(field)) return parameter;
    const value = percentDecoded(parameter.slice(at + 1).replaceAll('+', ' '));
    return `${parameter.slice(0, at + 1)}${lastFourOf(value)}`;
  });
  return redactSecrets(parameters.join('&'));
}

function redactError(error: Error): Error | { type: string; message: string; stack?: string } {
  const message = redactSecrets(error.message);
  const stack = error.stack === undefined ? undefined : redactSecrets(error.stack);
  if (message === error.message && stack === error.stack) return error;
  return { type: error.name, message, ...(stack === undefined ? {} : { stack }) };
}
